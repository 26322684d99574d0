/**
 * The offline verifier (`npm run verify`) on real packages: a platform on SQLite saves evidence, its proof bundle is
 * fetched from `GET /api/ledger/proof`, and the test builds the package ZIP with archiver as the gateway does
 * (proof.json pretty-printed, certificate.pdf, evidence/<name>). A good package passes; one changed byte of the
 * original, of the proof (an inclusion-proof hex digit) or of the STH signature fails, naming the step.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ZipArchive } from 'archiver';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { LedgerPaths, type LedgerPublicKey, type ProofBundle } from '../../contract/ledger.ts';
import { cosignerVerifierKey } from '../../contract/cosignature.ts';
import { rawEd25519 } from '../../contract/note-signing.ts';
import { startWitness } from '../../witness/main.ts';
import { LedgerSigner, TreeHeads } from './signer.ts';
import { LedgerWitnessing, parseWitnesses } from './witnessing.ts';
import { LedgerTimestamping } from './timestamping.ts';
import { startLocalTsa } from '../../tests/support/local-tsa.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { buildPlatform } from '../app.ts';
import { get, login, post, testConfig, upload } from '../../tests/support/platform.ts';
import { verifyPackage, type PackageReport } from './package-verify.ts';
import { loadWitnessConfig } from '../../witness/config.ts';

const run = promisify(execFile);

interface ZipItem {
  name: string;
  data: Buffer;
}

/** Writes a ZIP of `items` to `file` with archiver (deflate, UTF-8 names). */
async function writeZip(file: string, items: ZipItem[]): Promise<void> {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('close', () => resolve());
    archive.on('error', reject);
  });
  archive.pipe(out);
  for (const it of items) archive.append(it.data, { name: it.name });
  await archive.finalize();
  await done;
}

/** The files of one package as the gateway writes them. */
function packageItems(bundle: ProofBundle, original: Buffer | null, prefix = ''): ZipItem[] {
  const items: ZipItem[] = [
    { name: `${prefix}proof.json`, data: Buffer.from(`${JSON.stringify(bundle, null, 2)}\n`) },
    { name: `${prefix}certificate.pdf`, data: Buffer.from('%PDF-1.7 not a real certificate\n') },
  ];
  if (bundle.fileName !== null && original)
    items.push({ name: `${prefix}evidence/${bundle.fileName}`, data: original });
  return items;
}

const statuses = (r: PackageReport) => r.steps.map((s) => s.status);

describe('npm run verify', () => {
  let app: FastifyInstance;
  let dir: string;
  let token: string;
  let bundle: ProofBundle;
  let original: Buffer;
  let good: string;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-verify-'));
    app = await buildPlatform(testConfig(path.join(dir, 'data'), undefined), { logger: false });
    token = await login(app, DEMO_MOBILE, 'demo1234');
    original = randomBytes(200_000);
    // a few more leaves around it, so the inclusion proof has several hashes
    for (let i = 0; i < 6; i++) await upload(app, token, randomBytes(32), `pad${i}.bin`);
    const saved = await upload<SaveEvidenceData>(app, token, original, '租赁合同 扫描件.pdf');
    for (let i = 0; i < 5; i++) await upload(app, token, randomBytes(32), `pad${i + 6}.bin`);
    bundle = (await get<ProofBundle>(app, LedgerPaths.proof, { baoquan: saved.data.baoquan })).data;
    expect(bundle.inclusionProof.length).toBeGreaterThan(2);
    good = path.join(dir, 'good.zip');
    await writeZip(good, packageItems(bundle, original));
  });

  afterAll(async () => {
    await app?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('a good package passes every step (and the CLI exits 0, printing ✓ per step)', async () => {
    const [r] = await verifyPackage(good);
    expect(r).toMatchObject({ ok: true, baoquan: bundle.baoquan, failed: null });
    expect(statuses(r!)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'skip', 'skip']);

    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      'platform/ledger/verify-cli.ts',
      good,
    ]);
    const lines = stdout.split('\n');
    for (let step = 1; step <= 5; step++) expect(lines.some((l) => l.startsWith(`✓ ${step}) `))).toBe(true);
    expect(stdout).toContain('OK: all steps hold');
  }, 30_000);

  it('one changed byte of the original fails step 2 (CLI exit 2, naming the step)', async () => {
    const bad = Buffer.from(original);
    bad[123_456]! ^= 0x01;
    const file = path.join(dir, 'bad-original.zip');
    await writeZip(file, packageItems(bundle, bad));
    const [r] = await verifyPackage(file);
    expect(r!.failed).toMatchObject({ step: 2, name: 'original file' });
    expect(statuses(r!)).toEqual(['pass', 'fail', 'pass', 'pass', 'pass', 'skip', 'skip']);

    const err = await run(process.execPath, ['--import', 'tsx', 'platform/ledger/verify-cli.ts', file]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stdout: string }).stdout).toContain('✗ 2) original file');
    expect((err as { stdout: string }).stdout).toContain('FAILED at step 2 (original file)');
  }, 30_000);

  it('one changed hex digit of an inclusion-proof hash in proof.json fails step 4', async () => {
    const text = `${JSON.stringify(bundle, null, 2)}\n`;
    const target = bundle.inclusionProof[1]!;
    const changed = target.slice(0, 7) + (target[7] === 'a' ? 'b' : 'a') + target.slice(8);
    const file = path.join(dir, 'bad-proof.zip');
    const items = packageItems(bundle, original);
    items[0] = { name: 'proof.json', data: Buffer.from(text.replace(target, changed)) };
    await writeZip(file, items);
    const [r] = await verifyPackage(file);
    expect(r!.failed).toMatchObject({ step: 4, name: 'inclusion proof' });
    expect(statuses(r!)).toEqual(['pass', 'pass', 'pass', 'fail', 'pass', 'skip', 'skip']);
  });

  it('one changed byte of the STH signature fails step 5; so does another key with --key', async () => {
    const sig = Buffer.from(bundle.sth.signature, 'base64');
    sig[5]! ^= 0x80;
    const file = path.join(dir, 'bad-sig.zip');
    await writeZip(
      file,
      packageItems({ ...bundle, sth: { ...bundle.sth, signature: sig.toString('base64') } }, original),
    );
    const [r] = await verifyPackage(file);
    expect(r!.failed).toMatchObject({ step: 5, name: 'tree-head signature' });
    expect(statuses(r!)).toEqual(['pass', 'pass', 'pass', 'pass', 'fail', 'skip', 'skip']);

    // the published key (GET /api/ledger/publicKey) confirms the good package; another key refuses it
    const right = path.join(dir, 'right.pem');
    await fsp.writeFile(right, bundle.publicKey.pem);
    expect((await verifyPackage(good, { keyPem: bundle.publicKey.pem }))[0]!.ok).toBe(true);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const [o] = await verifyPackage(good, { keyPem: other });
    expect(o!.failed).toMatchObject({ step: 5, detail: expect.stringContaining('--key') });
    const wrong = path.join(dir, 'other.pem');
    await fsp.writeFile(wrong, other);
    const err = await run(process.execPath, [
      '--import',
      'tsx',
      'platform/ledger/verify-cli.ts',
      good,
      '--key',
      wrong,
    ]).catch((e: { code: number }) => e);
    expect(err).toMatchObject({ code: 5 });
    const ok = await run(process.execPath, [
      '--import',
      'tsx',
      'platform/ledger/verify-cli.ts',
      good,
      '--key',
      right,
    ]);
    expect(ok.stdout).toContain('against the given key');
  }, 30_000);

  it('a changed record fails step 3; a package without proof.json or with version 2 fails step 1', async () => {
    const forged = { ...bundle, record: { ...bundle.record, size: bundle.record.size + 1 } };
    const f1 = path.join(dir, 'bad-record.zip');
    await writeZip(f1, packageItems(forged, original));
    expect((await verifyPackage(f1))[0]!.failed).toMatchObject({ step: 3 });
    // consistent forgery of record + canonical: the leaf hash no longer matches
    const f2 = path.join(dir, 'bad-leaf.zip');
    await writeZip(
      f2,
      packageItems(
        {
          ...forged,
          recordCanonical: bundle.recordCanonical.replace(/"size":\d+/, `"size":${forged.record.size}`),
        },
        original,
      ),
    );
    expect((await verifyPackage(f2))[0]!.failed).toMatchObject({
      step: 3,
      detail: expect.stringContaining('leafHash'),
    });

    const f3 = path.join(dir, 'no-proof.zip');
    await writeZip(f3, packageItems(bundle, original).slice(1));
    expect((await verifyPackage(f3))[0]!.failed).toMatchObject({ step: 1 });
    const f4 = path.join(dir, 'v2.zip');
    await writeZip(f4, packageItems({ ...bundle, version: 2 as 1 }, original));
    expect((await verifyPackage(f4))[0]!.failed).toMatchObject({
      step: 1,
      detail: expect.stringContaining('version'),
    });
    const f5 = path.join(dir, 'missing-original.zip');
    await writeZip(f5, packageItems(bundle, null));
    expect((await verifyPackage(f5))[0]!.failed).toMatchObject({
      step: 2,
      detail: expect.stringContaining('not in the package'),
    });
  });

  it('hash evidence (no original) passes with step 2 skipped; a batch ZIP checks each folder', async () => {
    const r = await post<SaveEvidenceData>(
      app,
      EvidencePaths.saveHash,
      { hash: 'a'.repeat(64), title: '哈希' },
      token,
    );
    const hashBundle = (await get<ProofBundle>(app, LedgerPaths.proof, { baoquan: r.data.baoquan })).data;
    expect(hashBundle.fileName).toBeNull();
    const file = path.join(dir, 'hash.zip');
    await writeZip(file, packageItems(hashBundle, null));
    const [h] = await verifyPackage(file);
    expect(h).toMatchObject({ ok: true });
    expect(statuses(h!)).toEqual(['pass', 'skip', 'pass', 'pass', 'pass', 'skip', 'skip']);

    const batch = path.join(dir, 'batch.zip');
    const bad = Buffer.from(original);
    bad[0]! ^= 1;
    await writeZip(batch, [
      ...packageItems(bundle, original, `${bundle.baoquan}/`),
      ...packageItems(hashBundle, null, `${hashBundle.baoquan}/`),
    ]);
    const reports = await verifyPackage(batch);
    expect(reports.map((x) => [x.baoquan, x.ok])).toEqual(
      [
        [bundle.baoquan, true],
        [hashBundle.baoquan, true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    await writeZip(batch, [
      ...packageItems(bundle, bad, `${bundle.baoquan}/`),
      ...packageItems(hashBundle, null, `${hashBundle.baoquan}/`),
    ]);
    expect((await verifyPackage(batch)).find((x) => !x.ok)?.failed).toMatchObject({ step: 2 });
  });

  it('step 6 names the witnesses that vouched, and fails on a forged cosignature, a foreign witness or a bad proof', async () => {
    const witnessDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-witness-'));
    const logKey = (await get<LedgerPublicKey>(app, LedgerPaths.publicKey)).data.noteKey!;
    const { app: witnessApp } = await startWitness(
      loadWitnessConfig({
        WITNESS_LOGS: logKey,
        WITNESS_NAME: 'witness.test/w1',
        WITNESS_DIR: witnessDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      const url = `http://127.0.0.1:${(witnessApp.server.address() as { port: number }).port}`;
      const witnessKey = (await (await fetch(`${url}/vkey`)).text()).trim();
      const heads = new TreeHeads(
        app.pdb.db,
        await LedgerSigner.open(app.config.dataDir, app.config.ledgerOrigin),
      );
      await new LedgerWitnessing(
        app.pdb.db,
        heads,
        parseWitnesses([{ url, key: witnessKey }]),
        app.log,
      ).round();
      const witnessed = (await get<ProofBundle>(app, LedgerPaths.proof, { baoquan: bundle.baoquan })).data;
      expect(witnessed.witnessed?.note).toContain('— witness.test/w1 ');
      const file = path.join(dir, 'witnessed.zip');
      await writeZip(file, packageItems(witnessed, original));

      const [r] = await verifyPackage(file, { witnessKeys: [witnessKey] });
      expect(statuses(r!)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'skip']);
      expect(r!.steps[5]!.detail).toContain('vouched for by witness.test/w1');
      const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        'platform/ledger/verify-cli.ts',
        file,
        '--witness',
        witnessKey,
      ]);
      expect(stdout).toContain('✓ 6) witnesses: ');
      // without --witness the names are reported, unchecked
      expect((await verifyPackage(file))[0]!.steps[5]!.detail).toContain('not checked');

      const foreign = generateKeyPairSync('ed25519').publicKey;
      const stranger = cosignerVerifierKey('witness.test/w1', rawEd25519(foreign));
      expect((await verifyPackage(file, { witnessKeys: [stranger] }))[0]!.failed).toMatchObject({
        step: 6,
        detail: expect.stringContaining('none of the given witnesses'),
      });
      const note = witnessed.witnessed!.note;
      const at = note.length - 12;
      const forged = {
        ...witnessed,
        witnessed: {
          ...witnessed.witnessed!,
          note: `${note.slice(0, at)}${note[at] === 'A' ? 'B' : 'A'}${note.slice(at + 1)}`,
        },
      };
      await writeZip(file, packageItems(forged, original));
      expect((await verifyPackage(file, { witnessKeys: [witnessKey] }))[0]!.failed).toMatchObject({
        step: 6,
      });
      const bent = {
        ...witnessed,
        witnessed: {
          ...witnessed.witnessed!,
          inclusionProof: [...witnessed.witnessed!.inclusionProof].reverse(),
        },
      };
      await writeZip(file, packageItems(bent, original));
      expect((await verifyPackage(file, { witnessKeys: [witnessKey] }))[0]!.failed).toMatchObject({
        step: 6,
        detail: expect.stringContaining('does not lead'),
      });
    } finally {
      await witnessApp.close();
      await fsp.rm(witnessDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('step 7 checks the RFC 3161 stamp of the checkpoint against the given TSA certificate', async () => {
    const tsa = await startLocalTsa();
    const other = await startLocalTsa();
    try {
      const heads = new TreeHeads(
        app.pdb.db,
        await LedgerSigner.open(app.config.dataDir, app.config.ledgerOrigin),
      );
      await new LedgerTimestamping(
        app.pdb.db,
        heads,
        { url: tsa.url, trustedPem: tsa.caPem },
        app.log,
      ).round();
      const stamped = (await get<ProofBundle>(app, LedgerPaths.proof, { baoquan: bundle.baoquan })).data;
      expect(stamped.timestamp).toBeDefined();
      const file = path.join(dir, 'stamped.zip');
      await writeZip(file, packageItems(stamped, original));
      const [r] = await verifyPackage(file, { tsaCertsPem: tsa.caPem });
      expect(r!.steps[6]).toMatchObject({
        status: 'pass',
        detail: expect.stringContaining('stamped by Cunzheng Test TSA'),
      });
      const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        'platform/ledger/verify-cli.ts',
        file,
        '--tsa-cert',
        tsa.caFile,
      ]);
      expect(stdout).toContain('✓ 7) time stamp: ');
      expect((await verifyPackage(file, { tsaCertsPem: other.caPem }))[0]!.failed).toMatchObject({
        step: 7,
        detail: expect.stringContaining('chain'),
      });
      const tokenBytes = Buffer.from(stamped.timestamp!.token, 'base64');
      tokenBytes[tokenBytes.length - 3]! ^= 0x01;
      const bent = { ...stamped, timestamp: { ...stamped.timestamp!, token: tokenBytes.toString('base64') } };
      await writeZip(file, packageItems(bent, original));
      expect((await verifyPackage(file, { tsaCertsPem: tsa.caPem }))[0]!.failed).toMatchObject({ step: 7 });
    } finally {
      await tsa.close();
      await other.close();
    }
  }, 30_000);
});
