/**
 * An envelope call of the pages to the embedded platform without an HTTP hop (docs/decisions/032, "Page calls
 * without the loopback hop"). It carries what the same call over HTTP would: the method, the path with its query,
 * the request headers (names in any case, each one value) and a form-encoded or empty body; it is answered with the
 * status, the Content-Type and the body text the platform would have sent. Only the small envelope calls of
 * `apiCall` (app/lib/api.server.ts) go this way; uploads and file downloads stream over HTTP as before.
 */

/** One call: `url` is the path and query (`/api/user/getAuthInfo?x=1`), never an absolute URL. */
export interface PlatformCallRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** The form-encoded body (with its Content-Type among `headers`), or none. */
  body?: string;
}

/** The platform's answer: HTTP status, Content-Type ('' when none) and the whole body as text (UTF-8). */
export interface PlatformCallAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Hands one call to the embedded platform and resolves with its answer.
 * @throws (rejects) when the platform cannot take calls (it has stopped or ended): a connection failure
 */
export type PlatformCall = (request: PlatformCallRequest) => Promise<PlatformCallAnswer>;
