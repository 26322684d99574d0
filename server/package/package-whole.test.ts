/**
 * Evidence packages through the whole process: the platform's signed packageUrl and batchUrl, its authorize call,
 * the ledger proof and the real certificate renderer. Each test skips (saying why) while the platform does not yet
 * issue package URLs or serve the ledger proof; the gateway side alone is covered by package.test.ts.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import type { BatchDownloadData } from '../../contract/evidence.ts';
import type { ProofBundle } from '../../contract/ledger.ts';
import {
  hasBuild,
  hasChromium,
  login,
  ownerDownload,
  startWhole,
  uploadEvidence,
  type Whole,
} from '../../tests/support/pdf-whole.ts';
import { readZip, saveBody } from '../../tests/support/zip.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.skipIf(!hasBuild() || !hasChromium())('evidence packages (whole process)', () => {
  let w: Whole;
  let token: string;
  let n = 0;
  const upload = async () => {
    const bytes = Buffer.from(`证据原件 ${++n} ${Math.random()}`.repeat(2000));
    const saved = await uploadEvidence(w.base, token, {
      title: `租赁合同 ${n}`,
      fileName: `合同 ${n}.txt`,
      bytes,
    });
    return { ...saved, bytes, fileName: `合同 ${n}.txt` };
  };
  /** Why a test cannot run yet, or null: the platform's package URL and the ledger proof are needed. */
  const missing = async (dataId: number, baoquan: string): Promise<string | null> => {
    const dl = await ownerDownload(w.base, token, dataId);
    if (!dl.data?.packageUrl) return 'the platform does not issue packageUrl yet (downBaoquan)';
    const proof = (await (
      await fetch(`${w.base}/api/ledger/proof?baoquan=${baoquan}`)
    ).json()) as ApiEnvelope<unknown>;
    if (Number(proof.code) !== 200) return 'the platform does not serve GET /api/ledger/proof yet';
    return null;
  };
  const zipOf = async (url: string) => {
    const res = await fetch(`${w.base}${url}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.status, await (res.status === 200 ? '' : res.clone().text())).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    const file = path.join(w.dataDir, `${sha256(Buffer.from(url))}.zip`);
    await saveBody(res, file);
    return { res, entries: await readZip(file) };
  };

  beforeAll(async () => {
    w = await startWhole();
    token = await login(w.base);
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('the package of an evidence holds the original (same SHA-256), proof.json (leaf = chain hash) and the PDF', async (ctx) => {
    const saved = await upload();
    const why = await missing(saved.id, saved.baoquan);
    ctx.skip(why !== null, why ?? '');
    const { packageUrl } = (await ownerDownload(w.base, token, saved.id)).data!;
    const { res, entries } = await zipOf(packageUrl!);
    expect(res.headers.get('content-disposition')).toContain(`filename="${saved.baoquan}.zip"`);
    expect(entries.map((e) => e.name)).toEqual([
      'proof.json',
      'certificate.pdf',
      `evidence/${saved.fileName}`,
    ]);
    const [proofEntry, pdf, original] = entries;
    const proof = JSON.parse(proofEntry!.bytes!.toString('utf8')) as ProofBundle;
    expect(proof.baoquan).toBe(saved.baoquan);
    expect(proof.leafHash).toBe(saved.chainhash);
    expect(pdf!.bytes!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(original!.sha256).toBe(saved.filehash);
    expect(original!.sha256).toBe(sha256(saved.bytes));
  });

  it('a tampered or altered package URL is refused with 403', async (ctx) => {
    const saved = await upload();
    const dl = await ownerDownload(w.base, token, saved.id);
    ctx.skip(!dl.data?.packageUrl, 'the platform does not issue packageUrl yet (downBaoquan)');
    const u = new URL(dl.data!.packageUrl!, w.base);
    const exp = u.searchParams.get('exp')!;
    const sig = u.searchParams.get('sig')!;
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    for (const q of [`exp=${exp}&sig=${flipped}`, `exp=${Number(exp) + 1}&sig=${sig}`, `exp=${exp}`]) {
      const res = await fetch(`${w.base}${u.pathname}?${q}`);
      expect(res.status, q).toBe(403);
      expect(await res.text()).toBe('下载链接无效或已过期');
    }
  });

  it('the batch ZIP of 3 selected evidences has a folder each whose originals match', async (ctx) => {
    const items = [await upload(), await upload(), await upload()];
    const why = await missing(items[0]!.id, items[0]!.baoquan);
    ctx.skip(why !== null, why ?? '');
    const res = await fetch(`${w.base}/api/data/downloadBatch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataIdStr: items.map((i) => i.id).join(',') }),
    });
    const batch = (await res.json()) as ApiEnvelope<BatchDownloadData>;
    ctx.skip(
      Number(batch.code) !== 200 || !batch.data?.batchUrl,
      'the platform does not answer downloadBatch yet',
    );
    const { res: zip, entries } = await zipOf(batch.data.batchUrl);
    const name = decodeURIComponent(
      /filename\*=UTF-8''(.+)$/.exec(zip.headers.get('content-disposition')!)![1]!,
    );
    expect(name).toMatch(/^证据批量下载-\d{12}\.zip$/);
    for (const item of items) {
      const original = entries.find((e) => e.name === `${item.baoquan}/evidence/${item.fileName}`);
      expect(original?.sha256).toBe(item.filehash);
      expect(entries.some((e) => e.name === `${item.baoquan}/proof.json`)).toBe(true);
      expect(entries.some((e) => e.name === `${item.baoquan}/certificate.pdf`)).toBe(true);
    }
  });
});
