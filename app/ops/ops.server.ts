/**
 * Operator console session (decision 013): the operator's bearer token lives in its own encrypted cookie session
 * (`cz_ops`, app/lib/session.server.ts), apart from the user's; console pages require it. An expired or missing
 * operator token (code 408 from an ops call) sends the operator to /ops/login; a call their roles do not open
 * (code 403) shows the platform's 无权访问 page (docs/decisions/015-operator-console-roles.md).
 */
import { data, redirect, type AppLoadContext } from 'react-router';
import { ApiCode, type ApiEnvelope } from '../../contract/envelope.ts';
import { OpsMsg } from '../../contract/ops.ts';
import { apiCall, type ApiCallOptions } from '../lib/api.server.ts';
import { safeTarget } from '../lib/auth.server.ts';
import { getOpsSession, opsSessionStorageFor } from '../lib/session.server.ts';

/** Only console paths are accepted as the target after an operator logs in. */
export function opsTarget(to: FormDataEntryValue | string | null | undefined): string {
  const target = safeTarget(to, '/ops');
  return target === '/ops' || target.startsWith('/ops/') || target.startsWith('/ops?') ? target : '/ops';
}

/** `/ops/login?redirect=<path>` (plus `expired=1` when the platform said the operator session ended). */
export function opsLoginUrl(request: Request, expired: boolean): string {
  const url = new URL(request.url);
  const params = new URLSearchParams({ redirect: url.pathname + url.search });
  if (expired) params.set('expired', '1');
  return `/ops/login?${params}`;
}

/** Ends the operator session (the user's login, if any, stays) and goes to the console login. */
async function opsLoginRedirect(request: Request, ctx: AppLoadContext, expired: boolean): Promise<Response> {
  const session = await getOpsSession(request, ctx);
  return redirect(opsLoginUrl(request, expired), {
    headers: { 'Set-Cookie': await opsSessionStorageFor(ctx).destroySession(session) },
  });
}

/** The logged-in operator's token and name, or a thrown redirect to /ops/login. */
export async function requireOperator(
  request: Request,
  ctx: AppLoadContext,
): Promise<{ token: string; name: string }> {
  const session = await getOpsSession(request, ctx);
  const token = session.get('opsToken');
  if (!token) throw redirect(opsLoginUrl(request, false));
  return { token, name: session.get('opsName') ?? '' };
}

/**
 * Calls an ops path with the operator's token.
 * @throws a redirect to /ops/login on code 408; a 403 response (无权访问) on code 403
 */
export async function opsCall<T>(
  request: Request,
  ctx: AppLoadContext,
  path: string,
  opts: Omit<ApiCallOptions, 'token' | 'urlPath'> = {},
): Promise<ApiEnvelope<T>> {
  const { token } = await requireOperator(request, ctx);
  const res = await apiCall<T>(ctx, path, {
    ...opts,
    token,
    urlPath: new URL(request.url).pathname,
    signal: opts.signal ?? request.signal,
  });
  const code = Number(res.code);
  if (code === ApiCode.SESSION_EXPIRED) throw await opsLoginRedirect(request, ctx, true);
  if (code === ApiCode.FORBIDDEN) throw data({ message: res.msg || OpsMsg.forbidden }, { status: 403 });
  return res;
}

/**
 * The data of a successful ops call.
 * @throws a 404 response with the platform's message on code 404 (a detail page's unknown id), a 502 response with
 *   it on any other failure
 */
export async function opsData<T>(
  request: Request,
  ctx: AppLoadContext,
  path: string,
  opts: Omit<ApiCallOptions, 'token' | 'urlPath'> = {},
): Promise<T> {
  const res = await opsCall<T>(request, ctx, path, opts);
  if (Number(res.code) === ApiCode.NOT_FOUND) throw data({ message: res.msg }, { status: 404 });
  if (Number(res.code) !== ApiCode.OK) throw data({ message: res.msg }, { status: 502 });
  return res.data;
}
