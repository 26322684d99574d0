/**
 * The file-URL token of the mobile certificate QR code (spec 01 §2.3, spec 02 §9): 23 characters followed by the
 * base64 of the URL with every `/` turned into `*`. The spec calls the 23 characters random; ours are a keyed MAC
 * (base62 of HMAC-SHA256 over the URL), which looks just as random but lets the gateway refuse a forged token.
 * Storage host names in decoded URLs are rewritten by configuration (spec 01 §9): STORAGE_HOST_REWRITE is a comma
 * list of `from=to` host pairs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX_LENGTH = 23;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function macPrefix(url: string, secret: string): string {
  const mac = createHmac('sha256', `cunzheng-file-token:${secret}`).update(url, 'utf8').digest();
  let out = '';
  for (let i = 0; out.length < PREFIX_LENGTH; i++) out += BASE62[mac[i % mac.length]! % 62];
  return out;
}

/** Encodes `url` (any characters; UTF-8) as a token. */
export function encodeFileToken(url: string, secret: string): string {
  const b64 = Buffer.from(url, 'utf8').toString('base64').replace(/\//g, '*');
  return macPrefix(url, secret) + b64;
}

/**
 * Decodes a token and checks its MAC with any of `secrets` (rotation). Returns the URL, or null for a malformed or
 * forged token.
 */
export function decodeFileToken(token: string, secrets: string[]): string | null {
  if (token.length <= PREFIX_LENGTH) return null;
  const prefix = token.slice(0, PREFIX_LENGTH);
  const b64 = token.slice(PREFIX_LENGTH).replace(/\*/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const url = Buffer.from(b64, 'base64').toString('utf8');
  // Round trip: a token whose base64 part does not re-encode identically was altered.
  if (Buffer.from(url, 'utf8').toString('base64') !== b64) return null;
  for (const secret of secrets) {
    const expected = Buffer.from(macPrefix(url, secret));
    if (timingSafeEqual(expected, Buffer.from(prefix))) return url;
  }
  return null;
}

/**
 * Applies STORAGE_HOST_REWRITE `rules` (`from=to,…`; the load context's `site.storageHostRewrite`, '' for none) to an
 * absolute URL's host; relative URLs pass unchanged.
 */
export function rewriteStorageHost(url: string, rules: string): string {
  if (!/^https?:\/\//i.test(url) || !rules.trim()) return url;
  const u = new URL(url);
  for (const pair of rules.split(',')) {
    const [from, to] = pair.split('=').map((s) => s.trim());
    if (from && to && u.host === from) {
      u.host = to;
      return u.toString();
    }
  }
  return url;
}
