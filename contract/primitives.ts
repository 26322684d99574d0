/**
 * SHA-256 (FIPS 180-4) and Ed25519 verification (RFC 8032 §5.1.7) for code that runs in Node and in browsers (the
 * ledger's verification, the package check; decision 036). In Node they are node:crypto's (native: a ledger append
 * hashes a leaf and ~20 nodes, where @noble/hashes costs 2–3× as much and @noble/curves' verify 13×); in a browser,
 * where `process.getBuiltinModule` does not exist, @noble/hashes and @noble/curves (audited, pure JS, no WebCrypto
 * Ed25519 needed). The module is picked once, when this file loads. Signing stays with node:crypto
 * (contract/note-signing.ts).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import type * as NodeCryptoModule from 'node:crypto';
import { hexToBytes, pemBlocks, utf8ToBytes } from './bytes.ts';

/** node:crypto where the runtime has it (Node ≥ 20.16), else null. */
const nodeCrypto: typeof NodeCryptoModule | null =
  ((globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    'node:crypto',
  ) as typeof NodeCryptoModule | null) ?? null;

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4), before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = hexToBytes('302a300506032b6570032100');

/** SHA-256 of the concatenation of `parts` (strings as UTF-8). @returns 32 bytes */
export function sha256(...parts: (string | Uint8Array)[]): Uint8Array {
  if (nodeCrypto) {
    const h = nodeCrypto.createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest();
  }
  const h = nobleSha256.create();
  for (const p of parts) h.update(typeof p === 'string' ? utf8ToBytes(p) : p);
  return h.digest();
}

/**
 * Verifies `signature` (64 bytes) of `message` by the raw 32-byte Ed25519 key `publicKey`.
 * @returns false for a bad signature, a wrong length or an unusable key; never throws
 */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    if (nodeCrypto) {
      const der = new Uint8Array(44);
      der.set(ED25519_SPKI_PREFIX, 0);
      der.set(publicKey, 12);
      const key = nodeCrypto.createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
      return nodeCrypto.verify(null, message, key, signature);
    }
    return ed25519.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/**
 * The raw 32-byte key of an Ed25519 public key given as an SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
 * @throws Error when the text is not one PEM public key block of an Ed25519 SubjectPublicKeyInfo
 */
export function ed25519RawFromPem(pem: string): Uint8Array {
  const [der] = pemBlocks(pem, 'PUBLIC KEY');
  if (!der) throw new Error('not a PEM public key');
  if (der.length !== 44 || !ED25519_SPKI_PREFIX.every((b, i) => der[i] === b))
    throw new Error('not an Ed25519 key');
  return der.subarray(12);
}
