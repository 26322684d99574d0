/**
 * Writes the worked example of docs/verification.md to tests/fixtures/verification-example/ (run once by hand:
 * `node --import tsx scripts/make-verification-example.ts`; the output is committed and tested as fixed bytes by
 * platform/ledger/verification-example.test.ts). A throwaway platform (temp DATA_DIR, SQLite, its own ledger key)
 * preserves one small file among a few others, a local witness cosigns the checkpoint and a local RFC 3161 TSA
 * (OpenSSL's `ts`) stamps it, and the evidence's package is written with the keys an outsider needs:
 *   package.zip            proof.json and evidence/<file> (the gateway's package also holds certificate.pdf, which no
 *                          check needs; left out here to keep the example small)
 *   proof.json             the same, unzipped
 *   ledger-key.pem         the ledger's Ed25519 public key (SPKI PEM)
 *   ledger.vkey            its C2SP note verifier key
 *   witness.vkey           the witness's verifier key (cosignature/v1)
 *   tsa-ca.pem             the certificate the TSA's certificate is issued by
 *   sth-signing-input.txt, sth.sig     the bytes the tree-head signature covers, and the raw 64-byte signature
 *   timestamp-note.txt, timestamp.der  the stamped checkpoint note and its RFC 3161 token
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import { LedgerPaths, sthSigningInput, type LedgerPublicKey, type ProofBundle } from '../contract/ledger.ts';
import type { SaveEvidenceData } from '../contract/evidence.ts';
import { DEMO_MOBILE } from '../platform/account/users.ts';
import { buildPlatform } from '../platform/app.ts';
import { LedgerSigner, TreeHeads } from '../platform/ledger/signer.ts';
import { LedgerTimestamping } from '../platform/ledger/timestamping.ts';
import { LedgerWitnessing, parseWitnesses } from '../platform/ledger/witnessing.ts';
import { startLocalTsa } from '../tests/support/local-tsa.ts';
import { get, login, testConfig, upload } from '../tests/support/platform.ts';
import { startWitness } from '../witness/main.ts';
import { loadWitnessConfig } from '../witness/config.ts';

const OUT = path.resolve('tests/fixtures/verification-example');
const FILE_NAME = 'example-contract.txt';
const FILE_TEXT = '示例合同：甲方与乙方约定……（存证云验证示例）\n';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-example-'));
const app = await buildPlatform(testConfig(path.join(tmp, 'data'), undefined), { logger: false });
const tsa = await startLocalTsa();
const log = (await get<LedgerPublicKey>(app, LedgerPaths.publicKey)).data;
const { app: witnessApp } = await startWitness(
  loadWitnessConfig({
    WITNESS_LOGS: log.noteKey!,
    WITNESS_NAME: 'witness.example/w1',
    WITNESS_DIR: path.join(tmp, 'witness'),
    PORT: '0',
    LOG_LEVEL: 'silent',
  }),
);
try {
  const token = await login(app, DEMO_MOBILE, 'demo1234');
  for (let i = 0; i < 3; i++) await upload(app, token, Buffer.from(`padding ${i}\n`), `pad${i}.txt`);
  const saved = (await upload<SaveEvidenceData>(app, token, Buffer.from(FILE_TEXT), FILE_NAME)).data;
  for (let i = 3; i < 6; i++) await upload(app, token, Buffer.from(`padding ${i}\n`), `pad${i}.txt`);
  const url = `http://127.0.0.1:${(witnessApp.server.address() as { port: number }).port}`;
  const witnessKey = (await (await fetch(`${url}/vkey`)).text()).trim();
  const heads = new TreeHeads(
    app.pdb.db,
    await LedgerSigner.open(app.config.dataDir, app.config.ledgerOrigin),
  );
  await new LedgerWitnessing(app.pdb.db, heads, parseWitnesses([{ url, key: witnessKey }]), app.log).round();
  await new LedgerTimestamping(app.pdb.db, heads, { url: tsa.url, trustedPem: tsa.caPem }, app.log).round();
  const bundle = (await get<ProofBundle>(app, LedgerPaths.proof, { baoquan: saved.baoquan })).data;
  if (!bundle.witnessed || !bundle.timestamp)
    throw new Error('the example needs a cosigned and a stamped checkpoint');

  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const proofJson = `${JSON.stringify(bundle, null, 2)}\n`;
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(path.join(OUT, 'package.zip'));
    out.on('close', resolve);
    zip.on('error', reject);
    zip.pipe(out);
  });
  zip.append(proofJson, { name: 'proof.json' });
  zip.append(Buffer.from(FILE_TEXT), { name: `evidence/${FILE_NAME}` });
  await zip.finalize();
  await done;
  const write = (name: string, data: string | Buffer) => fs.writeFileSync(path.join(OUT, name), data);
  write('proof.json', proofJson);
  write('ledger-key.pem', bundle.publicKey.pem);
  write('ledger.vkey', `${bundle.publicKey.noteKey}\n`);
  write('witness.vkey', `${witnessKey}\n`);
  write('tsa-ca.pem', tsa.caPem);
  write('sth-signing-input.txt', sthSigningInput(bundle.sth));
  write('sth.sig', Buffer.from(bundle.sth.signature, 'base64'));
  write('timestamp-note.txt', bundle.timestamp.note);
  write('timestamp.der', Buffer.from(bundle.timestamp.token, 'base64'));
  process.stdout.write(
    `wrote ${OUT} (evidence ${bundle.baoquan}, leaf ${bundle.leafIndex} of ${bundle.sth.treeSize})\n`,
  );
} finally {
  await witnessApp.close();
  await tsa.close();
  await app.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
