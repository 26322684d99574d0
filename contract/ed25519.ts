/**
 * Ed25519 verification that runs the same in Node and in browsers without WebCrypto's Ed25519 (the offline package
 * verifier, issue 17 point 5): @noble/curves (audited, pure JS), RFC 8032 §5.1.7 verification, plus the raw key of
 * an Ed25519 SubjectPublicKeyInfo PEM (RFC 8410 §4). Signing stays with node:crypto (contract/note-signing.ts).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, decodeBase64 } from './bytes.ts';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4), before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = '302a300506032b6570032100';

/**
 * Verifies `signature` (64 bytes) of `message` by the raw 32-byte Ed25519 key `publicKey` (RFC 8032 §5.1.7, with
 * noble's strict checks: canonical S, a point on the curve). @returns false for a bad signature, length or key
 */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
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
  const m = /-----BEGIN PUBLIC KEY-----([\sA-Za-z0-9+/=]*?)-----END PUBLIC KEY-----/.exec(pem);
  if (!m) throw new Error('not a PEM public key');
  const der = decodeBase64(m[1]!.replace(/\s+/g, ''));
  if (!der) throw new Error('the PEM public key is not base64');
  if (der.length !== 44 || bytesToHex(der.subarray(0, 12)) !== ED25519_SPKI_PREFIX)
    throw new Error('not an Ed25519 key');
  return der.subarray(12);
}
