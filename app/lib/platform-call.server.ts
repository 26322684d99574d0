/**
 * One small call to the platform, by whichever way reaches it: the embedded platform's call without HTTP
 * (contract/platform-call.ts) when the target has one, else an HTTP request with undici's request() rather than
 * fetch (no Request/Response/Headers objects or web streams per call; decision 032). Used by the pages' `apiCall`
 * (./api.server.ts) and by the gateway's own calls (the PDF renderer's evidence view, the signer's CMS).
 */
import { request as undiciRequest } from 'undici';
import {
  untilAborted,
  type PlatformCall,
  type PlatformCallAnswer,
  type PlatformCallRequest,
} from '../../contract/platform-call.ts';

/** Where the platform is: its base URL (no trailing slash) and, when embedded, its call without HTTP. */
export interface PlatformTarget {
  upstreamUrl: string;
  platformCall?: PlatformCall | undefined;
}

/**
 * Sends `request` (its path and query in `url`) to the platform and reads the whole answer.
 * @param signal ends the wait (a deadline, a browser gone): the call rejects with its reason
 * @param httpUrl where the request goes over HTTP (default: `request.url` after the target's base URL)
 * @returns the status, the Content-Type ('' when none) and the body as text
 * @throws undici's errors over HTTP (refused, aborted), the call's over the embedded platform (ECONNREFUSED when it
 *   has stopped), the signal's reason when it aborts first
 */
export async function callPlatform(
  target: PlatformTarget,
  request: PlatformCallRequest,
  signal: AbortSignal,
  httpUrl: string | URL = `${target.upstreamUrl}${request.url}`,
): Promise<PlatformCallAnswer> {
  // the signal holds whatever the call does with it
  if (target.platformCall) return untilAborted(target.platformCall(request, signal), signal);
  const res = await undiciRequest(httpUrl, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal,
  });
  const contentType = res.headers['content-type'];
  return {
    status: res.statusCode,
    contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? '',
    body: await res.body.text(),
  };
}
