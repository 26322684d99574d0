/**
 * The in-browser package check (package-browser.ts: zip.js over a Blob) gives the same verdict, step for step, as the
 * upload path and `npm run verify` (yauzl over a file), on the worked example package of docs/verification.md and on
 * tampered copies of it: one flipped byte of the original, a wrong proof node, a tree head of a foreign key, a
 * damaged cosignature, a damaged time-stamp token, a stored original that is itself a ZIP, and a file that is no ZIP.
 */
import { createHash, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import {
  BlobReader,
  Uint8ArrayWriter,
  ZipReader,
  type FileEntry,
} from '@zip.js/zip.js/lib/zip-core-native.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sthSigningInput, type LedgerPublicKey, type ProofBundle } from '../../contract/ledger.ts';
import { publicKeyId } from '../../contract/ledger-verify.ts';
import { verifyPackage } from '../../contract/package-verify.ts';
import { rawEd25519 } from '../../contract/note-signing.ts';
import { checkPackageFile } from './package-browser.ts';
import { UNREADABLE_PACKAGE, verdictOf, verifyOptionsOf, type PackageVerdict } from './package-steps.ts';

const FIXTURE = path.join(import.meta.dirname, '../../tests/fixtures/verification-example');
const read = (name: string) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

/** The keys the page publishes for the example ledger: its key, its witness, its TSA. */
const KEY: LedgerPublicKey = {
  algorithm: 'Ed25519',
  keyId: publicKeyId(read('ledger-key.pem')),
  pem: read('ledger-key.pem'),
  noteKey: read('ledger.vkey').trim(),
  witnesses: [read('witness.vkey').trim()],
  tsaCertificates: read('tsa-ca.pem'),
};

let dir: string;
const bundle = JSON.parse(read('proof.json')) as ProofBundle;

/** Writes a package ZIP as the gateway does: proof.json deflated, the original stored. */
async function writePackage(name: string, b: ProofBundle, data: Buffer): Promise<string> {
  const file = path.join(dir, `${name}.zip`);
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    zip.on('error', reject);
  });
  zip.pipe(out);
  zip.append(`${JSON.stringify(b, null, 2)}\n`, { name: 'proof.json' });
  zip.append(data, { name: `evidence/${b.fileName}`, store: true });
  await zip.finalize();
  await done;
  return file;
}

/** Both verdicts of a package file: in the browser's way and in the server's. */
async function bothVerdicts(file: string): Promise<[PackageVerdict, PackageVerdict]> {
  const inBrowser = await checkPackageFile(new Blob([await fsp.readFile(file)]), KEY);
  let onServer: PackageVerdict;
  try {
    const [report] = await verifyPackage(file, verifyOptionsOf(KEY));
    onServer = verdictOf(report!, KEY.keyId);
  } catch {
    onServer = { error: UNREADABLE_PACKAGE };
  }
  return [inBrowser, onServer];
}

const failedStep = (v: PackageVerdict) => ('error' in v ? v.error : v.failed);

describe('the in-browser package check', () => {
  let genuine: Buffer;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-browser-verify-'));
    // the example's original, as the fixture package holds it
    const zip = new ZipReader(
      new BlobReader(new Blob([await fsp.readFile(path.join(FIXTURE, 'package.zip'))])),
    );
    const entry = (await zip.getEntries()).find((e) => e.filename === `evidence/${bundle.fileName}`);
    genuine = Buffer.from(await (entry as FileEntry).getData(new Uint8ArrayWriter()));
    await zip.close();
  });
  afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

  it('accepts the worked example with all seven steps, as the server does', async () => {
    const [inBrowser, onServer] = await bothVerdicts(path.join(FIXTURE, 'package.zip'));
    expect(inBrowser).toEqual(onServer);
    if ('error' in inBrowser) throw new Error(inBrowser.error);
    expect(inBrowser.ok).toBe(true);
    expect(inBrowser.steps.map((s) => s.status)).toEqual(Array(7).fill('pass'));
    // the witness was checked against the published key, the token against the published TSA certificate
    expect(inBrowser.steps[5]!.detail).toContain('vouched for by witness.example/w1');
    expect(inBrowser.steps[6]!.detail).toContain('chained to the given TSA certificate');
  });

  it('names the failing step of tampered packages exactly as the server does', async () => {
    const flipped = Buffer.from(genuine);
    flipped[10]! ^= 0x01;
    const wrongProof = {
      ...bundle,
      inclusionProof: [createHash('sha256').update('x').digest('hex'), ...bundle.inclusionProof.slice(1)],
    };
    const foreignKey = generateKeyPairSync('ed25519').privateKey;
    const foreignPem = createPublicKey(foreignKey).export({ type: 'spki', format: 'pem' }).toString();
    const foreignId = publicKeyId(rawEd25519(foreignKey));
    const foreign = {
      ...bundle,
      sth: {
        ...bundle.sth,
        checkpoint: undefined,
        keyId: foreignId,
        signature: sign(null, Buffer.from(sthSigningInput(bundle.sth)), foreignKey).toString('base64'),
      },
      publicKey: { ...bundle.publicKey, pem: foreignPem, keyId: foreignId },
    };
    const cosigned = bundle.witnessed!.note.split('\n');
    const last = cosigned.length - 2; // the witness's line, before the final newline
    cosigned[last] = cosigned[last]!.replace(
      /.(=*)$/,
      (m, pad: string) => `${m[0] === 'A' ? 'B' : 'A'}${pad}`,
    );
    const badCosignature = { ...bundle, witnessed: { ...bundle.witnessed!, note: cosigned.join('\n') } };
    const token = Buffer.from(bundle.timestamp!.token, 'base64');
    token[token.length - 5]! ^= 0x01;
    const badToken = { ...bundle, timestamp: { ...bundle.timestamp!, token: token.toString('base64') } };

    const cases: [string, ProofBundle, Buffer, number][] = [
      ['flipped', bundle, flipped, 2],
      ['proof', wrongProof, genuine, 4],
      ['foreign', foreign as ProofBundle, genuine, 5],
      ['cosignature', badCosignature, genuine, 6],
      ['token', badToken, genuine, 7],
    ];
    for (const [name, b, data, step] of cases) {
      const [inBrowser, onServer] = await bothVerdicts(await writePackage(name, b, data));
      expect(inBrowser, name).toEqual(onServer);
      expect(failedStep(inBrowser), name).toBe(step);
    }
  });

  it('reads a stored original that is itself a ZIP (its bytes hold ZIP signatures) and hashes it whole', async () => {
    const inner = await fsp.readFile(path.join(FIXTURE, 'package.zip'));
    expect(inner.includes(Buffer.from('PK\x03\x04', 'latin1'))).toBe(true);
    const [inBrowser, onServer] = await bothVerdicts(await writePackage('nested', bundle, inner));
    expect(inBrowser).toEqual(onServer);
    if ('error' in inBrowser) throw new Error(inBrowser.error);
    const digest = createHash('sha256').update(inner).digest('hex');
    expect(inBrowser.steps[1]!.detail).toContain(`SHA-256 is ${digest}`);
  });

  it('says a file that is no ZIP cannot be read', async () => {
    const file = path.join(dir, 'not.zip');
    await fsp.writeFile(file, 'not a zip at all');
    expect(await bothVerdicts(file)).toEqual([{ error: UNREADABLE_PACKAGE }, { error: UNREADABLE_PACKAGE }]);
  });
});
