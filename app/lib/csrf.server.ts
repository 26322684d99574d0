/**
 * CSRF protection for every mutation (remix-utils CSRF): a signed token in an HttpOnly cookie, echoed by a hidden
 * `csrf` field in each form. Multipart uploads carry it in the form's action URL (`?csrf=`) so that the file stream
 * can be forwarded without being parsed here.
 */
import { randomBytes } from 'node:crypto';
import { createCookie, data, type AppLoadContext } from 'react-router';
import { CSRF, CSRFError } from 'remix-utils/csrf/server';
import { cookieName } from './session.server.ts';

/**
 * remix-utils' CSRF with its token drawn by one `randomBytes` call: the library's own draws one `getRandomValues`
 * per character (about 50 calls a token, paid by every request that comes without a `cz_csrf` cookie). Same shape:
 * 32 random bytes in base64url, a dot, the library's signature of them.
 */
class CsrfWithNodeRandom extends CSRF {
  override generate(bytes = 32): string {
    const token = randomBytes(bytes).toString('base64url');
    // `sign` is private in the typings only; calling it keeps the token's format the one `validate` checks.
    return `${token}.${(this as unknown as { sign(value: string): string }).sign(token)}`;
  }
}

/** One CSRF helper per configuration (the secrets array and cookie security of a gateway never change). */
const helpers = new WeakMap<readonly string[], Map<boolean, CSRF>>();

function csrfFor(ctx: AppLoadContext): CSRF {
  let bySecurity = helpers.get(ctx.sessionSecrets);
  if (!bySecurity) helpers.set(ctx.sessionSecrets, (bySecurity = new Map()));
  let csrf = bySecurity.get(ctx.secureCookies);
  if (!csrf) {
    const cookie = createCookie(cookieName('cz_csrf', ctx), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secureCookies,
      secrets: ctx.sessionSecrets,
    });
    csrf = new CsrfWithNodeRandom({ cookie, formDataKey: 'csrf', secret: ctx.sessionSecrets[0] });
    bySecurity.set(ctx.secureCookies, csrf);
  }
  return csrf;
}

/** The request's CSRF token and, when a new one was made, the Set-Cookie value to send. */
export async function commitCsrfToken(
  request: Request,
  ctx: AppLoadContext,
): Promise<readonly [string, string | null]> {
  return csrfFor(ctx).commitToken(request);
}

/**
 * Checks the form's `csrf` field against the cookie.
 * @throws a 403 response when it is missing or does not match.
 */
export async function validateCsrf(formData: FormData, request: Request, ctx: AppLoadContext): Promise<void> {
  try {
    await csrfFor(ctx).validate(formData, request.headers);
  } catch (err) {
    if (err instanceof CSRFError) throw data({ message: '页面已过期，请刷新后重试' }, { status: 403 });
    throw err;
  }
}

/**
 * Checks the `?csrf=` parameter of the action URL against the cookie: for multipart bodies the action forwards as a
 * stream, unparsed (the upload forms put the token there).
 * @throws a 403 response when it is missing or does not match.
 */
export async function validateCsrfInUrl(request: Request, ctx: AppLoadContext): Promise<void> {
  const form = new FormData();
  form.set('csrf', new URL(request.url).searchParams.get('csrf') ?? '');
  await validateCsrf(form, request, ctx);
}
