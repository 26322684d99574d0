/**
 * An envelope call to the embedded platform without an HTTP hop (docs/decisions/052, "Page calls without the
 * loopback hop"). It carries what the same call over HTTP would: the method, the path with its query, the request
 * headers (names in any case, each one value) and a body text or none; it is answered with the status, the
 * Content-Type and the body text the platform would have sent. Only small envelope calls go this way (the pages'
 * `apiCall`, the PDF renderer's evidence view, the signer's CMS; app/lib/platform-call.server.ts); uploads and file
 * downloads stream over HTTP as before. No I/O here: the types, and the one promise helper both sides use to give up
 * on a call when its deadline passes.
 */

/** One call: `url` is the path and query (`/api/user/getAuthInfo?x=1`), never an absolute URL. */
export interface PlatformCallRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** The body text (a form or JSON, its Content-Type among `headers`), or none. */
  body?: string;
}

/** The platform's answer: HTTP status, Content-Type ('' when none) and the whole body as text (UTF-8). */
export interface PlatformCallAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Hands one call to the embedded platform and resolves with its answer. When `signal` aborts first, the call
 * rejects with the signal's reason at once and its answer, which the platform may still produce, is dropped (a call
 * in the platform cannot be cut off midway, as a request whose socket closes runs on too).
 * @throws (rejects) when the platform cannot take calls (it has stopped or ended): a connection failure
 *   (`code: 'ECONNREFUSED'`); the signal's reason when it aborts first
 */
export type PlatformCall = (
  request: PlatformCallRequest,
  signal?: AbortSignal,
) => Promise<PlatformCallAnswer>;

/**
 * `work`, or a rejection with `signal`'s reason as soon as `signal` aborts (then `work`'s late result is dropped);
 * `work` itself without a signal.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}
