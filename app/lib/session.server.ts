/**
 * The gateway's cookie sessions: each holds an upstream bearer token, encrypted (AES-256-GCM) and authenticated,
 * HttpOnly, SameSite=Lax, Secure behind TLS. Secrets rotate: the first encrypts, every one decrypts.
 * The browser never sees a token in readable form and never needs local storage (ARCHITECTURE "Sessions").
 *
 * Two cookies, two lifetimes: `cz_session` for the user (spec 02 "Session") and `cz_ops` for the operator console
 * (decision 013). Keeping them apart means a user logging out, changing the password or meeting an expired token
 * never ends the operator's session in the same browser, and the other way round. {@link startSession} writes
 * either after a login.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createSession, type Session, type SessionStorage } from 'react-router';
import type { AppLoadContext } from 'react-router';

export interface SessionData {
  /** Upstream bearer token. */
  token?: string;
  /** Unix seconds when the upstream token expires (for the cookie lifetime). */
  expiresAt?: number;
}
export type AppSession = Session<SessionData>;

/** The operator console's session (cookie `cz_ops`). */
export interface OpsSessionData {
  /** The operator's bearer token (platform/ops). */
  opsToken?: string;
  /** The logged-in operator's username, for the console header. */
  opsName?: string;
  /** Unix seconds when the operator token expires (for the cookie lifetime). */
  expiresAt?: number;
}
export type OpsSession = Session<OpsSessionData>;

type SessionContext = Pick<AppLoadContext, 'sessionSecrets' | 'secureCookies' | 'basePath'>;

function keyFor(secret: string): Buffer {
  return createHash('sha256').update(`cunzheng-session:${secret}`).digest();
}

/** Encrypts a JSON value into `iv.tag.ciphertext` (base64url parts). */
function seal(value: unknown, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** Decrypts `seal` output with any of the secrets; null when none authenticates it. */
function unseal(sealed: string, secrets: string[]): unknown {
  const parts = sealed.split('.');
  if (parts.length !== 3) return null;
  const [iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  for (const secret of secrets) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), iv);
      decipher.setAuthTag(tag);
      const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      return JSON.parse(text);
    } catch {
      // wrong key or tampered: try the next secret
    }
  }
  return null;
}

/**
 * The value of cookie `name` in a Cookie request header (RFC 6265 §5.4), percent-decoded; null when the header does
 * not carry it or its value is not valid percent-encoding (a cookie the gateway never set).
 */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * A sealed-cookie session storage named `cookieName`. Its lifetime follows `expiresAt` (unix seconds) in the data;
 * without it the cookie is a browser-session cookie. Throws when no secret is configured.
 */
function sealedCookieStorage<T extends { expiresAt?: number }>(
  ctx: SessionContext,
  cookieName: string,
): SessionStorage<T> {
  const secrets = ctx.sessionSecrets;
  if (secrets.length === 0) throw new Error('no session secret configured');
  const attrs = (maxAge: number | null) =>
    [
      `Path=${cookiePath(ctx)}`,
      'HttpOnly',
      'SameSite=Lax',
      ctx.secureCookies ? 'Secure' : '',
      maxAge === null ? '' : `Max-Age=${maxAge}`,
      maxAge === 0 ? 'Expires=Thu, 01 Jan 1970 00:00:00 GMT' : '',
    ]
      .filter(Boolean)
      .join('; ');
  return {
    async getSession(cookieHeader) {
      const raw = readCookie(cookieHeader ?? null, cookieName);
      const data = raw ? unseal(raw, secrets) : null;
      const valid = data && typeof data === 'object' ? (data as T) : ({} as T);
      return createSession<T>(valid, '');
    },
    async commitSession(session) {
      const data = session.data as { expiresAt?: number };
      const maxAge = data.expiresAt ? Math.max(0, data.expiresAt - Math.floor(Date.now() / 1000)) : null;
      return `${cookieName}=${encodeURIComponent(seal(data, secrets[0]!))}; ${attrs(maxAge)}`;
    },
    async destroySession() {
      return `${cookieName}=; ${attrs(0)}`;
    },
  };
}

/**
 * The name of cookie `base` as sent: over TLS with the `__Host-` prefix (OWASP ASVS 5.0 3.3.1), so a browser accepts
 * it only from this origin over TLS with `Path=/` and no Domain; under a BASE_PATH, where `Path=/` would hand the
 * cookie to every other application of the corporate gateway's host, `__Secure-` (TLS only, Path the base path);
 * plain `base` over HTTP, where browsers would refuse a prefixed cookie.
 */
export function cookieName(base: string, ctx: Pick<AppLoadContext, 'secureCookies' | 'basePath'>): string {
  if (!ctx.secureCookies) return base;
  return ctx.basePath ? `__Secure-${base}` : `__Host-${base}`;
}

/** The `Path` of the gateway's cookies: the BASE_PATH (`/cunzheng`, which also matches `/cunzheng/…`), else `/`. */
export function cookiePath(ctx: Pick<AppLoadContext, 'basePath'>): string {
  return ctx.basePath || '/';
}

/** The user's session storage (cookie `cz_session`) for one request's context. */
export function sessionStorageFor(ctx: SessionContext): SessionStorage<SessionData> {
  return sealedCookieStorage<SessionData>(ctx, cookieName('cz_session', ctx));
}

/** The operator console's session storage (cookie `cz_ops`), independent of the user's. */
export function opsSessionStorageFor(ctx: SessionContext): SessionStorage<OpsSessionData> {
  return sealedCookieStorage<OpsSessionData>(ctx, cookieName('cz_ops', ctx));
}

/** Reads the operator session of a request. */
export async function getOpsSession(request: Request, ctx: AppLoadContext): Promise<OpsSession> {
  return opsSessionStorageFor(ctx).getSession(request.headers.get('Cookie'));
}

/** Reads the session of a request. */
export async function getSession(request: Request, ctx: AppLoadContext): Promise<AppSession> {
  return sessionStorageFor(ctx).getSession(request.headers.get('Cookie'));
}

/** Which session: the user's (`cz_session`) or the operator console's (`cz_ops`). */
export type SessionKind = 'user' | 'ops';

/**
 * Starts the `kind` session of a request after a login: stores the upstream token (and, for the console, the
 * operator's name) with its expiry, which sets the cookie's Max-Age.
 * @param login the token, its lifetime in seconds and who logged in
 * @returns the Set-Cookie header value
 */
export async function startSession(
  request: Request,
  ctx: AppLoadContext,
  kind: SessionKind,
  login: { token: string; expiresIn: number; name: string },
): Promise<string> {
  const expiresAt = Math.floor(Date.now() / 1000) + login.expiresIn;
  if (kind === 'user') {
    const session = await getSession(request, ctx);
    session.set('token', login.token);
    session.set('expiresAt', expiresAt);
    return sessionStorageFor(ctx).commitSession(session);
  }
  const session = await getOpsSession(request, ctx);
  session.set('opsToken', login.token);
  session.set('opsName', login.name);
  session.set('expiresAt', expiresAt);
  return opsSessionStorageFor(ctx).commitSession(session);
}
