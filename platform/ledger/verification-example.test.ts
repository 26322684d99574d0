/**
 * docs/verification.md's worked example (tests/fixtures/verification-example/, fixed bytes made once by
 * scripts/make-verification-example.ts): the package passes all seven steps of `npm run verify` with the published
 * keys; the standard tools the document names accept the pieces (`openssl pkeyutl` the tree-head signature, `openssl
 * ts -verify` the RFC 3161 token) and refuse them with one byte changed; the leaf hash is SHA-256(0x00 ‖ record) as the
 * document says; and the values the document prints are the example's.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProofBundle } from '../../contract/ledger.ts';
import { verifyPackage } from './package-verify.ts';

const DIR = path.resolve('tests/fixtures/verification-example');
const read = (name: string) => fs.readFileSync(path.join(DIR, name), 'utf8');
const bundle = JSON.parse(read('proof.json')) as ProofBundle;
const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: DIR, stdio: 'pipe' }).toString();

/** A copy of the example file `name` with one byte changed, in a temp directory. @returns its path */
function bent(name: string, at: number): string {
  const bytes = fs.readFileSync(path.join(DIR, name));
  bytes[at]! ^= 0x01;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-bent-')), name);
  fs.writeFileSync(file, bytes);
  return file;
}

describe('docs/verification.md worked example', () => {
  it('passes all seven steps with the published keys', async () => {
    const [r] = await verifyPackage(path.join(DIR, 'package.zip'), {
      keyPem: read('ledger-key.pem'),
      witnessKeys: [read('witness.vkey').trim()],
      tsaCertsPem: read('tsa-ca.pem'),
    });
    expect(r!.steps.map((s) => s.status)).toEqual(Array(7).fill('pass'));
  });

  it('the leaf hash is SHA-256(0x00 ‖ recordCanonical) and the file hash is the record’s', () => {
    const leaf = createHash('sha256')
      .update(Buffer.from([0]))
      .update(bundle.recordCanonical, 'utf8')
      .digest('hex');
    expect(leaf).toBe(bundle.leafHash);
    expect(bundle.fileName).toBe('example-contract.txt');
  });

  it('openssl accepts the tree-head signature and the time-stamp token, and refuses them changed', () => {
    const sig = ['pkeyutl', '-verify', '-pubin', '-inkey', 'ledger-key.pem', '-rawin'];
    expect(openssl([...sig, '-in', 'sth-signing-input.txt', '-sigfile', 'sth.sig'])).toContain(
      'Signature Verified Successfully',
    );
    expect(() =>
      openssl([...sig, '-in', bent('sth-signing-input.txt', 20), '-sigfile', 'sth.sig']),
    ).toThrow();
    const ts = ['ts', '-verify', '-token_in', '-CAfile', 'tsa-ca.pem'];
    expect(openssl([...ts, '-data', 'timestamp-note.txt', '-in', 'timestamp.der'])).toContain(
      'Verification: OK',
    );
    expect(() => openssl([...ts, '-data', bent('timestamp-note.txt', 3), '-in', 'timestamp.der'])).toThrow();
    expect(read('sth-signing-input.txt')).toBe(
      `cunzheng-sth-v1\n${bundle.sth.treeSize}\n${bundle.sth.rootHash}\n${bundle.sth.timestamp}`,
    );
    expect(read('timestamp-note.txt')).toBe(bundle.timestamp!.note);
  });

  it('the document prints the example’s values', () => {
    const doc = fs.readFileSync(path.resolve('docs/verification.md'), 'utf8');
    for (const value of [
      bundle.leafHash,
      bundle.record.sha256,
      bundle.sth.rootHash,
      bundle.publicKey.noteKey!,
    ]) {
      expect(doc).toContain(value);
    }
  });
});
