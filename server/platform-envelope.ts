/**
 * One small call of the gateway's own machinery (the PDF renderer's evidence view, the signer's CMS) to the
 * platform: over the embedded platform's call without HTTP when there is one (contract/platform-call.ts), else over
 * HTTP to `upstreamUrl`. Either way the answer is the status and the body text, within `timeoutMs`.
 */
import { request } from 'undici';
import { untilAborted, type PlatformCall, type PlatformCallRequest } from '../contract/platform-call.ts';

/** Where the platform is: its base URL (no trailing slash) and, when embedded, its call without HTTP. */
export interface PlatformTarget {
  upstreamUrl: string;
  platformCall?: PlatformCall | undefined;
}

/**
 * Sends `call` (path and query in `url`, headers, optional body text) to the platform.
 * @returns the HTTP status and the whole body as text
 * @throws when the platform cannot be reached or does not answer within `timeoutMs` milliseconds (the caller wraps
 *   it in its own error)
 */
export async function platformText(
  target: PlatformTarget,
  call: PlatformCallRequest,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  if (target.platformCall) {
    const answer = await untilAborted(target.platformCall(call, signal), signal);
    return { status: answer.status, text: answer.body };
  }
  const res = await request(`${target.upstreamUrl}${call.url}`, {
    method: call.method,
    headers: call.headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
    signal,
  });
  return { status: res.statusCode, text: await res.body.text() };
}
