/**
 * Answers @fastify/compress would mislabel (decision 052, "Answers that look compressed").
 *
 * @fastify/compress 9 takes an answer whose first bytes look like a gzip or zlib (deflate) header for one that is
 * already compressed and sends it as it is — after it has set `Content-Encoding` to the encoding it negotiated
 * (fastify/fastify-compress#347, open). The client then fails to decode it ("Decompression failed"). The zlib test
 * (RFC 1950 §2.2: compression method 8, a window of at most 32 KiB, the first two bytes a multiple of 31) holds for
 * about one random byte pair in a thousand, so about one ledger tile in a thousand (SHA-256 values), and for text that
 * starts with, for instance, `80`, `(S`, `HK`, `hb` or `x ` (a user's text file previewed, a checkpoint whose host
 * starts so).
 *
 * This `onSend` hook runs before the plugin's own (scope hooks run before the route-level hook the plugin adds), and
 * sets the request header the plugin documents as its opt-out, `x-no-compression`, for
 * - `application/octet-stream` answers (ledger tiles, raw files): random bytes never get smaller;
 * - any other answer whose first bytes the plugin would take as compressed: a string or Buffer is read in place, a
 *   Node.js stream's first bytes are read and put back (`unshift`), so the plugin and the client get every byte
 *   (streamed documents and single-fetch data are not read: they start with `<` or `[`).
 * Those answers go out without `Content-Encoding`, as they are. Everything else is left to the plugin.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request header @fastify/compress skips an answer for (any value). */
const NO_COMPRESSION_HEADER = 'x-no-compression';

/**
 * True when `bytes` start as @fastify/compress's `isGzip` or `isDeflate` checks: the gzip magic with method 8
 * (RFC 1952 §2.3.1), or a zlib header with method 8, CINFO ≤ 7 and FCHECK making the first 16 bits a multiple of 31
 * (RFC 1950 §2.2).
 */
export function looksCompressed(bytes: Uint8Array): boolean {
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08) return true;
  if (bytes.length < 2) return false;
  const [cmf, flg] = [bytes[0]!, bytes[1]!];
  return (cmf & 0x0f) === 0x08 && (cmf & 0x80) === 0 && ((cmf << 8) + flg) % 31 === 0;
}

/**
 * Reads `stream`'s leading bytes until there are at least `min` of them or it ends. When it has not ended, the bytes
 * go back to its front (`unshift`, in the same tick as the read, before its `end` could be emitted) and `ended` is
 * false; when it has, `bytes` is the whole body and the stream is spent.
 * @throws the stream's error
 */
function peekLeadingBytes(stream: Readable, min: number): Promise<{ bytes: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const detach = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    function onReadable() {
      let chunk: Buffer | string | null;
      while ((chunk = stream.read() as Buffer | string | null) !== null) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        parts.push(bytes);
        size += bytes.length;
      }
      if (size >= min) {
        detach();
        const bytes = Buffer.concat(parts);
        stream.unshift(bytes);
        resolve({ bytes, ended: false });
      }
    }
    function onEnd() {
      detach();
      resolve({ bytes: Buffer.concat(parts), ended: true });
    }
    function onError(err: Error) {
      detach();
      reject(err);
    }
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

/** Fastify `onSend` hook of a scope with @fastify/compress: see the module comment. */
export async function guardCompressionSniff(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return payload;
  // nothing to negotiate, or already opted out: the plugin sends the answer as it is
  if (!request.headers['accept-encoding'] || request.headers[NO_COMPRESSION_HEADER] !== undefined)
    return payload;
  const skip = () => {
    request.headers[NO_COMPRESSION_HEADER] = '1';
  };
  const type = String(reply.getHeader('content-type') ?? '');
  if (/^application\/octet-stream\b/i.test(type)) {
    skip();
    return payload;
  }
  if (typeof payload === 'string') {
    if (looksCompressed(Buffer.from(payload.slice(0, 3)))) skip();
    return payload;
  }
  if (payload instanceof Uint8Array) {
    if (looksCompressed(payload)) skip();
    return payload;
  }
  // Documents and single-fetch data stream from React Router and start with `<` or `[` (never a zlib or gzip
  // header: CM would be 12 or 11); left unread, as every page would otherwise pay for the peek
  if (/^text\/(html|x-script)\b/i.test(type)) return payload;
  // media the plugin never compresses (mime-db: not compressible) stream on unread
  if (/^(image\/(?!svg)|video\/|audio\/|font\/|application\/(pdf|zip)\b)/i.test(type)) return payload;
  const stream = payload as Readable;
  if (typeof stream.pipe !== 'function' || typeof stream.unshift !== 'function') return payload;
  // @fastify/compress decides on its first 10 bytes; its tests read the first 3
  const { bytes, ended } = await peekLeadingBytes(stream, 3);
  if (looksCompressed(bytes)) skip();
  return ended ? bytes : stream;
}
