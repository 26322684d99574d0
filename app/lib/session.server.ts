/**
 * The gateway's cookie session: holds the upstream bearer token, encrypted (AES-256-GCM) and authenticated,
 * HttpOnly, SameSite=Lax, Secure behind TLS. Secrets rotate: the first encrypts, every one decrypts.
 * The browser never sees the token in readable form and never needs local storage (ARCHITECTURE "Sessions").
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createSession, type Session, type SessionStorage } from 'react-router';
import type { AppLoadContext } from 'react-router';

export interface SessionData {
  /** Upstream bearer token. */
  token?: string;
  /** Unix seconds when the upstream token expires (for the cookie lifetime). */
  expiresAt?: number;
  /** Operator console (/ops): the operator's bearer token, separate from the user's (issue 5). */
  opsToken?: string;
  /** The logged-in operator's username, for the console header. */
  opsName?: string;
}
export type AppSession = Session<SessionData>;

const COOKIE_NAME = 'cz_session';

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

function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/**
 * Creates the session storage for one request's context. Session lifetime follows the upstream token's expiry
 * (`expiresAt`, unix seconds); without it the cookie is a browser-session cookie.
 */
export function sessionStorageFor(
  ctx: Pick<AppLoadContext, 'sessionSecrets' | 'secureCookies'>,
): SessionStorage<SessionData> {
  const secrets = ctx.sessionSecrets;
  if (secrets.length === 0) throw new Error('no session secret configured');
  const attrs = (maxAge: number | null) =>
    [
      'Path=/',
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
      const raw = readCookie(cookieHeader ?? null, COOKIE_NAME);
      const data = raw ? unseal(raw, secrets) : null;
      const valid = data && typeof data === 'object' ? (data as SessionData) : {};
      return createSession<SessionData>(valid, '');
    },
    async commitSession(session) {
      const data = session.data as SessionData;
      const maxAge = data.expiresAt ? Math.max(0, data.expiresAt - Math.floor(Date.now() / 1000)) : null;
      return `${COOKIE_NAME}=${encodeURIComponent(seal(data, secrets[0]!))}; ${attrs(maxAge)}`;
    },
    async destroySession() {
      return `${COOKIE_NAME}=; ${attrs(0)}`;
    },
  };
}

/** Reads the session of a request. */
export async function getSession(request: Request, ctx: AppLoadContext): Promise<AppSession> {
  return sessionStorageFor(ctx).getSession(request.headers.get('Cookie'));
}
