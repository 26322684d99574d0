/**
 * CSRF protection for every mutation (remix-utils CSRF): a signed token in an HttpOnly cookie, echoed by a hidden
 * `csrf` field in each form. Multipart uploads carry it in the form's action URL (`?csrf=`) so that the file stream
 * can be forwarded without being parsed here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { data, type AppLoadContext, type Cookie } from 'react-router';
import { CSRF, CSRFError } from 'remix-utils/csrf/server';
import { randomPool } from './random-pool.server.ts';
import { cookieName, cookiePath, readCookie } from './session.server.ts';

/** HMAC-SHA256 of `value` under `secret` in base64 without padding: React Router's cookie signature. */
function cookieSignature(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value, 'utf8').digest('base64').replace(/=+$/, '');
}

/**
 * A signed cookie (React Router's `Cookie` interface, which remix-utils' CSRF takes) in React Router's own wire
 * format — `base64(JSON(value)) "." base64(HMAC-SHA256)`, first secret signs, every secret verifies — so cookies set
 * by `createCookie` before keep validating. The signature is node:crypto's synchronous HMAC: `createCookie` imports a
 * WebCrypto key and signs through the thread pool on every call (about 90 µs a cookie here against 4 µs, ~5 % of an
 * anonymous page's CPU; decision 032). `parse` answers null for a missing, unsigned, tampered or foreign cookie.
 * Attributes: Path (`path`, default `/`), HttpOnly, SameSite=Lax, and Secure when `secure`.
 */
export function signedCookie(
  name: string,
  opts: { secrets: readonly string[]; secure: boolean; path?: string },
): Cookie {
  const { secrets } = opts;
  if (secrets.length === 0) throw new Error('no cookie secret configured');
  const attributes = `Path=${opts.path ?? '/'}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
  return {
    name,
    isSigned: true,
    expires: undefined,
    async parse(header) {
      const raw = readCookie(header, name);
      if (raw === null || raw === '') return raw;
      const dot = raw.lastIndexOf('.');
      if (dot < 0) return null;
      const value = raw.slice(0, dot);
      const hash = Buffer.from(raw.slice(dot + 1));
      for (const secret of secrets) {
        const expected = Buffer.from(cookieSignature(value, secret));
        if (hash.length === expected.length && timingSafeEqual(hash, expected)) {
          try {
            return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as unknown;
          } catch {
            return null;
          }
        }
      }
      return null;
    },
    async serialize(value) {
      const encoded = Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
      return `${name}=${encodeURIComponent(`${encoded}.${cookieSignature(encoded, secrets[0]!)}`)}; ${attributes}`;
    },
  };
}

/** CSRF tokens: 32 random bytes each (256 bits), from a pooled CSPRNG buffer. */
const drawToken = randomPool(32);

/**
 * remix-utils' CSRF with its token drawn from {@link drawToken}: the library's own draws one `getRandomValues` per
 * character (about 50 calls a token, paid by every request that comes without a `cz_csrf` cookie). The token is 32
 * random bytes in base64url. It carries no second signature: what remix-utils calls one (with `secret`) is a plain
 * SHA-256 of the token, computed in JavaScript on every new token, which anyone can compute and so proves nothing;
 * the token's integrity is the cookie's HMAC ({@link signedCookie}), and `validate` compares the form's token with
 * the cookie's. Tokens of the earlier `token.sha256` form in cookies still set keep validating (the comparison is of
 * the whole string).
 */
class CsrfWithPooledRandom extends CSRF {
  override generate(): string {
    return drawToken('base64url');
  }
}

/** One CSRF helper per configuration (the secrets array, cookie security and base path of a gateway never change). */
const helpers = new WeakMap<readonly string[], Map<string, CSRF>>();

function csrfFor(ctx: AppLoadContext): CSRF {
  let byCookie = helpers.get(ctx.sessionSecrets);
  if (!byCookie) helpers.set(ctx.sessionSecrets, (byCookie = new Map()));
  const key = `${ctx.secureCookies}|${cookiePath(ctx)}`;
  let csrf = byCookie.get(key);
  if (!csrf) {
    const cookie = signedCookie(cookieName('cz_csrf', ctx), {
      secrets: ctx.sessionSecrets,
      secure: ctx.secureCookies,
      path: cookiePath(ctx),
    });
    csrf = new CsrfWithPooledRandom({ cookie, formDataKey: 'csrf' });
    byCookie.set(key, csrf);
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
