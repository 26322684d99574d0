/**
 * Byte helpers that run the same in Node and in browsers (the offline package verifier, decision 036): hex,
 * base64 (RFC 4648 §4, with padding), UTF-8 and big-endian integers over plain Uint8Arrays, without node:buffer.
 */
import {
  bytesToHex as nobleBytesToHex,
  hexToBytes as nobleHexToBytes,
  utf8ToBytes as nobleUtf8ToBytes,
} from '@noble/hashes/utils.js';

export { concatBytes } from '@noble/hashes/utils.js';

/** Node's Buffer where there is one (its hex and UTF-8 codecs are native); undefined in a browser. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Lower-case hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  if (!NodeBuffer) return nobleBytesToHex(bytes);
  const buf =
    bytes instanceof NodeBuffer ? bytes : NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.toString('hex');
}

/** The bytes of an even-length hex text. @throws Error for any other text */
export function hexToBytes(hex: string): Uint8Array {
  if (!NodeBuffer) return nobleHexToBytes(hex);
  // Buffer stops at the first pair that is not hex: a shorter result means the text was not all hex
  const bytes = NodeBuffer.from(hex, 'hex');
  if (bytes.length * 2 !== hex.length) throw new Error('hex string expected');
  return bytes;
}

/** The UTF-8 bytes of `text`. */
export function utf8ToBytes(text: string): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(text, 'utf8') : nobleUtf8ToBytes(text);
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes canonical padded base64 (RFC 4648 §4; no whitespace, no URL alphabet).
 * @returns the bytes, or null when `text` is not canonical base64
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64_RE.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // a last character with bits beyond the data ("QR==" for "A") is not canonical
  return encodeBase64(bytes) === text ? bytes : null;
}

/** Encodes bytes as padded base64 (RFC 4648 §4). */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The unsigned big-endian 32-bit integer at `offset`. @throws RangeError past the end */
export function readUint32BE(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, false);
}

/** The unsigned big-endian 64-bit integer at `offset`, as a bigint. @throws RangeError past the end */
export function readUint64BE(bytes: Uint8Array, offset: number): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, false);
}

/** Four bytes: `n` as an unsigned big-endian 32-bit integer. */
export function uint32BE(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}

/** Eight bytes: `n` as an unsigned big-endian 64-bit integer. */
export function uint64BE(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, false);
  return out;
}

/**
 * The DER bytes of every `-----BEGIN <label>-----` block of a PEM text (RFC 7468), in order.
 * @throws Error when a block's body is not base64
 */
export function pemBlocks(pem: string, label: string): Uint8Array<ArrayBuffer>[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => {
    const der = decodeBase64(m[1]!.replace(/\s+/g, ''));
    if (!der) throw new Error(`a PEM ${label} block is not base64`);
    return der;
  });
}
