/**
 * QR codes drawn on the server as SVG data URIs for an <img> (no script needed to show them): the certificate's
 * verification link, the owner's mobile link, a payment's code URL, the face verification link.
 */
import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';

/** Distinct texts whose QR code is kept (a certificate URL's code is about 6 KB: the cache holds ~3 MB at most). */
const CACHED_CODES = 500;
const cache = new LRUCache<string, string>({ max: CACHED_CODES });

/**
 * An SVG QR code of `text` (error correction M, one module of margin) as a `data:image/svg+xml;base64,` URI.
 * With `cached`, the code is kept for the next request with the same text: for texts that repeat, such as a
 * certificate's public URL (drawing one costs a few milliseconds of CPU); texts carrying a fresh token each time
 * (signed links, payment codes) are drawn uncached so that they do not push the repeating ones out.
 */
export async function qrDataUri(text: string, cached = false): Promise<string> {
  const hit = cached ? cache.get(text) : undefined;
  if (hit) return hit;
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  const uri = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  if (cached) cache.set(text, uri);
  return uri;
}
