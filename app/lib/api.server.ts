/**
 * The one server-only client through which app/ reaches the upstream platform, over HTTP, exactly as it would
 * reach a legacy upstream (ARCHITECTURE "Boundaries"). Every call answers the `{code, msg, data}` envelope. With the
 * embedded platform (`ctx.platformCall`) the envelope calls carry the same request through its message port instead
 * of a loopback socket (contract/platform-call.ts); uploads and files still stream over HTTP.
 * A connection failure throws a 502 Response carrying the spec's "connection failed" message (spec 01 §8), which
 * the root error boundary renders as a page.
 */
import { context, propagation } from '@opentelemetry/api';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { data as routeData, type AppLoadContext } from 'react-router';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { callPlatform } from './platform-call.server.ts';

export interface ApiCallOptions {
  method?: 'GET' | 'POST';
  /** Bearer token from the session. */
  token?: string | undefined;
  /** Query parameters (undefined values dropped). */
  query?: Record<string, string | number | undefined>;
  /** Form-encoded body (plain object). */
  body?: Record<string, string | number | undefined>;
  /** A raw body stream with its own content type (multipart uploads), forwarded without parsing. */
  stream?: { body: ReadableStream<Uint8Array>; contentType: string };
  /** The browser path the call is made for (X-URL-PATH header, spec 01 §7). */
  urlPath?: string;
  /** Abort signal (the browser request's), so a cancelled page cancels the upstream call. */
  signal?: AbortSignal;
  /** Send the platform's internal key (`x-internal-key`): calls that take what only the gateway makes. */
  internal?: boolean;
}

/**
 * Default UPSTREAM_TIMEOUT_MS when a context does not carry one (milliseconds); server/config/server.ts holds the real
 * default.
 */
const FALLBACK_UPSTREAM_TIMEOUT_MS = 30_000;

/** Thrown Response for a failed connection: the error page shows `Msg.connectionFailed` with status 502. */
export function connectionFailed(): Response {
  return new Response(JSON.stringify({ message: Msg.connectionFailed }), {
    status: 502,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/**
 * Calls `path` on the upstream and returns its envelope.
 * @throws a 502 `data()` response when the upstream cannot be reached or answers something that is not an envelope.
 */
export async function apiCall<T>(
  ctx: AppLoadContext,
  path: string,
  opts: ApiCallOptions = {},
): Promise<ApiEnvelope<T>> {
  const url = new URL(path, ctx.upstreamUrl);
  for (const [k, v] of Object.entries(opts.query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers = upstreamHeaders(ctx, opts);
  const timeoutMs = ctx.upstreamTimeoutMs || FALLBACK_UPSTREAM_TIMEOUT_MS;
  if (opts.stream) {
    headers['Content-Type'] = opts.stream.contentType;
    return postStream<T>(url, headers, opts.stream.body, opts.signal, timeoutMs);
  }
  let body: string | undefined;
  if (opts.body) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.body)) if (v !== undefined) form.set(k, String(v));
    body = form.toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  const method = opts.method ?? (body ? 'POST' : 'GET');
  // An upstream that accepts the connection and never answers must not hold the page (UPSTREAM_TIMEOUT_MS): the
  // envelope calls are small, so one deadline covers the answer and its body.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  const onCancel = () => abort.abort();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    if (opts.signal?.aborted) abort.abort();
    const answer = await callPlatform(
      ctx,
      { method, url: `${url.pathname}${url.search}`, headers, ...(body ? { body } : {}) },
      abort.signal,
      url,
    );
    return readEnvelope<T>(answer.status, answer.contentType, answer.body);
  } catch (err) {
    if (err instanceof Response || isRouteData(err)) throw err;
    if (timedOut) throw routeData({ message: Msg.connectionFailed }, { status: 504 });
    if (opts.signal?.aborted) throw err;
    throw routeData({ message: Msg.connectionFailed }, { status: 502 });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
  }
}

/** The headers of every upstream call: JSON wanted, the client's address, the bearer token, the page path. */
function upstreamHeaders(
  ctx: AppLoadContext,
  opts: Pick<ApiCallOptions, 'token' | 'urlPath' | 'internal'>,
): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // one id per page request in the gateway's and the platform's logs
  if (ctx.requestId) headers['X-Request-Id'] = ctx.requestId;
  // The platform counts per-client limits by this address (it trusts X-Forwarded-For from loopback only).
  if (ctx.clientIp) headers['X-Forwarded-For'] = ctx.clientIp;
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.urlPath) headers['X-URL-PATH'] = encodeURI(opts.urlPath);
  if (opts.internal && ctx.internalKey) headers['x-internal-key'] = ctx.internalKey;
  // W3C traceparent of the page's request span, when the gateway traces (lib/tracing.ts); else nothing
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * GETs a raw answer of the upstream (a file) with the headers of {@link apiCall}. UPSTREAM_TIMEOUT_MS bounds the wait
 * for the answer's headers; its body then streams at its own pace (the caller passes it on unbuffered).
 * @returns the upstream's Response, whatever its status
 * @throws a 504 `data()` response when the upstream stays silent, a 502 one when it cannot be reached
 */
export async function upstreamGet(
  ctx: AppLoadContext,
  path: string,
  opts: Pick<ApiCallOptions, 'token' | 'urlPath' | 'signal'> = {},
): Promise<Response> {
  const silent = new AbortController();
  const timer = setTimeout(() => silent.abort(), ctx.upstreamTimeoutMs || FALLBACK_UPSTREAM_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, silent.signal]) : silent.signal;
  try {
    return await fetch(new URL(path, ctx.upstreamUrl), { headers: upstreamHeaders(ctx, opts), signal });
  } catch (err) {
    if (silent.signal.aborted) throw routeData({ message: Msg.connectionFailed }, { status: 504 });
    if ((err as Error).name === 'AbortError') throw err;
    throw routeData({ message: Msg.connectionFailed }, { status: 502 });
  } finally {
    clearTimeout(timer);
  }
}

/** True for what `data()` returns (thrown by readEnvelope). */
function isRouteData(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'init' in err && 'data' in err;
}

/** Parses an upstream answer as an envelope. @throws a 502 `data()` response for anything else. */
function readEnvelope<T>(status: number, contentType: string, text: string): ApiEnvelope<T> {
  if (!contentType.includes('json')) {
    throw routeData({ message: status >= 500 ? Msg.connectionFailed : Msg.serverError }, { status: 502 });
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw routeData({ message: Msg.serverError }, { status: 502 });
  }
  if (typeof envelope !== 'object' || envelope === null || !('code' in envelope)) {
    throw routeData({ message: Msg.serverError }, { status: 502 });
  }
  return envelope as ApiEnvelope<T>;
}

/** Largest upstream answer to a streamed upload the gateway reads (bytes): an envelope is a few hundred bytes. */
const MAX_ENVELOPE_BYTES = 1024 * 1024;

/**
 * POSTs a body stream with node:http and backpressure, so a multi-GB upload costs constant memory.
 * (Node 20's fetch buffers a streamed request body when the upstream reads slower than the client sends: a 1 GiB
 * upload grew the process by ~1 GB; bench/upload.ts measures this path.)
 * The upstream may answer before reading everything (a 412, a 413): its answer wins; the rest of the browser's
 * body is then neither sent nor read (the page answer lingers and closes, lib/linger.ts).
 * `idleMs`: no byte sent or received for this long (a silent upstream) fails with the connection-failed page (504).
 */
async function postStream<T>(
  url: URL,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  idleMs: number,
): Promise<ApiEnvelope<T>> {
  const client = url.protocol === 'https:' ? https : http;
  const req = client.request(url, { method: 'POST', headers, signal });
  let timedOut = false;
  req.setTimeout(idleMs, () => {
    timedOut = true;
    req.destroy(Object.assign(new Error('upstream timed out'), { code: 'ETIMEDOUT' }));
  });
  const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  // Not pipeline(): on an upstream failure it would destroy the source, which cancels the browser's request stream
  // and destroys the browser's socket before the page can be sent.
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  source.once('error', (err) => req.destroy(err)); // the browser aborted: end the upstream request
  const stopSending = () => {
    source.unpipe(req);
    source.pause(); // not read further: the page answers and the connection lingers, then closes
  };
  req.once('error', stopSending);
  req.once('response', stopSending);
  source.pipe(req);
  let res: http.IncomingMessage;
  try {
    res = await answer;
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw routeData({ message: Msg.connectionFailed }, { status: timedOut ? 504 : 502 });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (size > MAX_ENVELOPE_BYTES) throw new Error('upstream answer too large');
      chunks.push(chunk as Buffer);
    }
  } catch {
    throw routeData({ message: Msg.connectionFailed }, { status: timedOut ? 504 : 502 });
  } finally {
    // The answer is in: an upload the upstream refused early is not sent any further.
    if (!req.writableFinished) req.destroy();
  }
  return readEnvelope<T>(
    res.statusCode ?? 502,
    String(res.headers['content-type'] ?? ''),
    Buffer.concat(chunks).toString('utf8'),
  );
}

/**
 * A multipart body of text `fields` and PDF `files` (each `{field, name, bytes}`) as {@link ApiCallOptions.stream},
 * for uploads the gateway itself makes (the notarisation documents, the notarial certificate).
 */
export function multipartPdfs(
  fields: Record<string, string>,
  files: readonly { field: string; name: string; bytes: Uint8Array<ArrayBuffer> }[],
): NonNullable<ApiCallOptions['stream']> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) form.set(f.field, new Blob([f.bytes], { type: 'application/pdf' }), f.name);
  const res = new Response(form);
  return { body: res.body!, contentType: res.headers.get('content-type')! };
}
