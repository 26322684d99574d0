/**
 * How the `/api` proxy sends the platform's answer on (`/api` through the gateway; docs/decisions/052).
 *
 * An answer that declares a small length (an envelope: at most {@link BUFFERED_ANSWER_MAX_BYTES}) is read whole and
 * sent as one buffer; a larger one, one without a declared length (chunked), and HEAD/204/304 answers are streamed
 * as they come. The bytes, status and headers are the platform's either way.
 *
 * Why: Fastify's stream replies keep each request's objects (the reply's end-of-stream listeners and what they
 * close over) alive past two young-generation collections. Measured on a minimal Fastify proxy on the 2-core
 * machine: ~11 KB promoted to the old generation per request and 4 ms scavenges with streamed answers, against
 * ~1 KB and 0.9 ms with the same answers buffered (7,700 → 9,400 req/s). The promoted garbage is what made the
 * gateway's scavenges long and its full collections frequent under load.
 *
 * An upstream that fails in the middle of a buffered answer gets the proxy's 502/504 envelope (nothing was sent
 * yet); a streamed one is cut off, as before.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, RawServerBase, RouteGenericInterface } from 'fastify';
import { replyConnectionFailed } from './upstream.ts';

/** Largest declared answer length (bytes) read whole before it is sent on. */
export const BUFFERED_ANSWER_MAX_BYTES = 128 * 1024;

/**
 * The byte count a Content-Length header value declares when it is at most `max` (a whole non-negative integer),
 * else undefined (absent, malformed or larger). Used for both directions of the proxy.
 */
export function declaredLengthWithin(value: unknown, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 && n <= max ? n : undefined;
}

/** The upstream answer as @fastify/reply-from hands it to `onResponse` (its headers are on the reply by then). */
export interface UpstreamAnswer {
  statusCode: number;
  stream: Readable;
}

/**
 * Reads `stream` to its end, at most `limit` bytes, with plain listeners: an async iterator would allocate its own
 * end-of-stream machinery per answer, the very garbage this module avoids. Also used for pages (server/pages/page-answer.ts).
 * @throws the stream's error, a RangeError past `limit`, or an Error when it closes before its end
 */
export function readWhole(stream: Readable, limit = Number.POSITIVE_INFINITY): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let ended = false;
    stream.on('data', (data: Buffer | string) => {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      bytes += chunk.length;
      if (bytes > limit) stream.destroy(new RangeError(`answer longer than its declared ${limit} bytes`));
      else chunks.push(chunk);
    });
    stream.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes));
    });
    stream.once('error', reject);
    stream.once('close', () => {
      if (!ended) reject(new Error('answer closed before its end'));
    });
  });
}

/**
 * Sends `answer` on through `reply` (whose status and headers, the declared length among them, reply-from has
 * already copied), its bytes untouched and unread for anything else (decision 059: saves are platform events).
 */
export function relayUpstreamAnswer(
  reply: FastifyReply<RouteGenericInterface, RawServerBase>,
  answer: UpstreamAnswer,
): void {
  const declared = declaredLengthWithin(reply.getHeader('content-length'), BUFFERED_ANSWER_MAX_BYTES);
  const streamed =
    declared === undefined ||
    reply.request.method === 'HEAD' ||
    answer.statusCode === 204 ||
    answer.statusCode === 304;
  if (streamed) {
    void reply.send(answer.stream);
    return;
  }
  readWhole(answer.stream, declared).then(
    (body) => {
      void reply.send(body);
    },
    (err: unknown) => {
      // The platform's headers describe a body that will not come: the envelope gets its own.
      reply.removeHeader('content-length');
      replyConnectionFailed(reply, err instanceof Error ? err : new Error(String(err)));
    },
  );
}
