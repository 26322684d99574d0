/**
 * Proves (spec 01 §2.2, §2.3; the no-JS upload path across all three parts): a complete multipart upload to
 * the upload page's action `POST /newAccessCard` (session from the real login form, CSRF token from the page)
 * answers a redirect to `/attestation/BQ…`; the certificate page shows the file's SHA-256 (Node's own hash of
 * the bytes sent) and a 64-hex chain hash, for the owner and for an anonymous reader; `GET
 * /api/share/getView` agrees; the list holds the new row with its title and label; storage holds exactly the
 * bytes sent and nothing is left in tmp.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  evidenceCount,
  filesUnder,
  multipart,
  postMultipart,
  startWhole,
  uploadCsrf,
  webLogin,
  type Envelope,
  type Whole,
} from '../support/integration.ts';

const BAOQUAN_PATH = /^\/attestation\/(BQ\d{8}[0-9A-HJKMNP-TV-Z]{20})$/;

describe.sequential('a complete upload through the page', () => {
  let whole: Whole;
  let token: string;

  beforeAll(async () => {
    whole = await startWhole();
    token = await apiLogin(whole.base);
  });
  afterAll(async () => {
    await whole?.stop();
  });

  it('redirects to the certificate, which shows the SHA-256 and the chain hash that getView reports', async () => {
    const file = randomBytes(5 * 1024 * 1024);
    const sha256 = createHash('sha256').update(file).digest('hex');
    const jar = await webLogin(whole.base);
    const csrf = await uploadCsrf(whole.base, jar);
    expect(await evidenceCount(whole.base, token)).toBe(0);

    const answer = await postMultipart(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
      headers: { cookie: jar.header() },
      form: multipart({ title: '集成测试合同', label: '合同' }, 'contract.bin'),
      file,
    });
    expect(answer.status, answer.body.slice(0, 500)).toBe(302);
    const location = String(answer.headers.location);
    const baoquan = BAOQUAN_PATH.exec(location)?.[1];
    expect(baoquan, `Location ${location}`).toBeTruthy();

    // The owner's certificate page shows the file's SHA-256 and a 64-hex chain hash (markup-agnostic: any
    // 64-hex token on the page other than the file hash).
    const page = await fetch(`${whole.base}${location}`, { headers: { cookie: jar.header() } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(sha256);
    const otherHashes = new Set([...html.matchAll(/\b[0-9a-f]{64}\b/g)].map((m) => m[0]));
    otherHashes.delete(sha256);
    expect(otherHashes.size, 'a 64-hex chain hash on the page').toBeGreaterThan(0);

    // The public API view agrees (anonymous: the link is the secret).
    const viewRes = await fetch(`${whole.base}/api/share/getView?baoquan=${baoquan}`);
    const view = (await viewRes.json()) as Envelope<{
      baoquan: string;
      filehash: string;
      chainhash: string;
      fileSize: number;
      title: string;
      isSelf: number;
      isDownload: number;
    }>;
    expect(view.code, view.msg).toBe(200);
    expect(view.data).toMatchObject({
      baoquan,
      filehash: sha256,
      fileSize: file.length,
      title: '集成测试合同',
      isSelf: 0,
      isDownload: 1,
    });
    const chainhash = view.data.chainhash;
    expect(chainhash).toMatch(/^[0-9a-f]{64}$/);
    expect(chainhash).not.toBe(sha256);
    expect(otherHashes.has(chainhash), 'the page shows the chain hash that getView reports').toBe(true);

    // An anonymous reader of the link sees the same hashes.
    const anon = await (await fetch(`${whole.base}${location}`)).text();
    expect(anon).toContain(sha256);
    expect(anon).toContain(chainhash);

    // The printed proof section: the evidence's leaf under the ledger's current head (which came with the view).
    const sth = (await (await fetch(`${whole.base}/api/ledger/sth`)).json()) as Envelope<{
      treeSize: number;
      rootHash: string;
      keyId: string;
    }>;
    const proof = /<dl class="facts" data-ledger-proof="">(.*?)<\/dl>/.exec(anon)?.[1] ?? '';
    const facts = [...proof.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(facts)).toMatchObject({
      叶子序号: '0',
      账本规模: String(sth.data.treeSize),
      树根哈希: sth.data.rootHash,
      签名公钥: sth.data.keyId,
    });

    // One row, with the title and label that travelled in the stream; the stored bytes are the bytes sent.
    expect(await evidenceCount(whole.base, token)).toBe(1);
    const list = (await (
      await fetch(`${whole.base}/api/data/getList`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Envelope<{ list: { baoquan: string; title: string; label: string }[] }>;
    expect(list.data.list[0]).toMatchObject({ baoquan, title: '集成测试合同', label: '合同' });
    const stored = filesUnder(path.join(whole.dataDir, 'evidence'));
    expect(stored).toHaveLength(1);
    const bytes = readFileSync(path.join(whole.dataDir, 'evidence', stored[0]!));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    expect(filesUnder(path.join(whole.dataDir, 'tmp'))).toEqual([]);
  });
});
