/**
 * The request body the `/api` proxy hands to undici, guarded so that an early upstream answer reaches the client
 * (docs/decisions/024-gateway-bodies.md).
 *
 * When the upstream answers before it has read the whole body (the 412 verification gate, a 413, a pending KYC
 * submission) and closes, undici stops writing and destroys the body stream it was given. Given the browser's own
 * request stream, that destroys the browser's socket too, and the answer the proxy is about to pass on is lost (the
 * client saw 502 or a reset). The guard gives undici a pass-through instead: undici may destroy it; the browser's
 * stream is only unpiped and paused, and the answer goes out with `Connection: close`, so the rest of a refused
 * upload is not read.
 *
 * A small body (a declared length of at most {@link BUFFERED_BODY_MAX_BYTES}: every JSON call) is read whole instead
 * and handed to undici as one buffer ({@link prepareProxyBody}, {@link forwardProxied}): undici writing a body from a
 * stream keeps each request's objects alive past two young-generation collections, which made the gateway's
 * collections long under load (docs/decisions/052).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BODY_LIMIT_BYTES } from '../../contract/envelope.ts';
import { declaredLengthWithin, readWhole } from './answer.ts';

/** The body types the platform parses whole (JSON, form-encoded), each bounded by `API_BODY_LIMIT_BYTES`. */
const WHOLE_BODY_TYPES = /^\s*(application\/json|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * Whether an `/api` request declares a JSON or form-encoded body (`Content-Length`, bytes) that the platform would
 * refuse as over `API_BODY_LIMIT_BYTES`: the gateway then answers the platform's 413 envelope itself, without
 * forwarding or reading the body. A chunked body (no length) is forwarded; the platform stops reading it at the limit.
 */
export function declaresOversizeBody(headers: IncomingHttpHeaders): boolean {
  const length = Number(headers['content-length']);
  return length > API_BODY_LIMIT_BYTES && WHOLE_BODY_TYPES.test(headers['content-type'] ?? '');
}

/**
 * Bytes buffered between the browser's stream and the upstream write (the pass-through's high-water mark): 256 KiB
 * lets the browser's socket be read while undici writes to the platform (64 KiB made the two take turns; decision 052).
 */
const GUARD_HIGH_WATER_BYTES = 256 * 1024;

/**
 * A pass-through fed from `raw` (with backpressure) that undici may destroy without touching `raw`.
 * An error of `raw` (the browser aborted) is passed on, so the upstream request is aborted as before.
 */
export function guardedBody(raw: IncomingMessage): Readable {
  const pass = new PassThrough({ highWaterMark: GUARD_HIGH_WATER_BYTES });
  const onRawError = (err: Error) => pass.destroy(err);
  raw.once('error', onRawError);
  // A browser abort shows as 'aborted'/'close' without 'error' on some Node versions: end the upstream request too.
  const onRawClose = () => {
    if (!raw.complete) pass.destroy(Object.assign(new Error('client aborted'), { code: 'ECONNRESET' }));
  };
  raw.once('close', onRawClose);
  pass.once('close', () => {
    raw.off('error', onRawError);
    raw.off('close', onRawClose);
    if (!raw.complete) {
      raw.unpipe(pass);
      raw.pause();
    }
  });
  raw.pipe(pass);
  return pass;
}

/** Largest declared request body (bytes) read whole by the gateway and forwarded as one buffer. */
export const BUFFERED_BODY_MAX_BYTES = 64 * 1024;

/**
 * The `/api` scope's preHandler: a body declared with a Content-Length of at most {@link BUFFERED_BODY_MAX_BYTES}
 * and a Content-Type is read whole into `request.body` (a Buffer); any other body becomes a {@link guardedBody}.
 * A client that goes away while its small body is read rejects with an `ECONNRESET` error, which the proxy's error
 * handler answers as it answers a body stream that failed (the client is gone either way).
 */
export async function prepareProxyBody(request: FastifyRequest): Promise<void> {
  if (request.body !== request.raw) return;
  const { headers } = request;
  const length = declaredLengthWithin(headers['content-length'], BUFFERED_BODY_MAX_BYTES);
  if (
    length === undefined ||
    headers['transfer-encoding'] !== undefined ||
    headers['content-type'] === undefined
  ) {
    request.body = guardedBody(request.raw);
    return;
  }
  try {
    request.body = await readWhole(request.raw, length);
  } catch {
    throw Object.assign(new Error('client aborted'), { code: 'ECONNRESET' });
  }
}

/**
 * @fastify/http-proxy's `handler`: forwards the request with `reply.from`, handing a body read whole by
 * {@link prepareProxyBody} over as its exact bytes and Content-Type (reply-from would `JSON.stringify` a Buffer found
 * in `request.body`); a streamed body goes as before.
 */
export function forwardProxied<Options extends object>(
  request: FastifyRequest,
  reply: FastifyReply & { from(dest: string, options: Options): FastifyReply },
  dest: string,
  options: Options,
): FastifyReply {
  const body = request.body;
  if (!Buffer.isBuffer(body)) return reply.from(dest, options);
  return reply.from(dest, { ...options, body, contentType: request.headers['content-type'] });
}
