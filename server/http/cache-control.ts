/**
 * Private answers are never stored (OWASP ASVS 5.0 14.3.2, docs/decisions/020-hardening-a.md), and an answer given
 * before its request body was read lingers a moment so the client reads it (lib/linger.ts, decision 024). Both are
 * `onSend` hooks of the root scope, so every scope inherits them.
 */
import type { FastifyInstance } from 'fastify';
import { lingerOnEarlyAnswer } from '../../lib/linger.ts';

/** A session cookie of the gateway (the user's or the console's, with or without a `__Host-`/`__Secure-` prefix). */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Host-|__Secure-)?cz_(?:session|ops)=[^;\s]/;

/** True when a request carries credentials: a session cookie or an Authorization header. */
export function carriesCredentials(headers: { cookie?: string; authorization?: string }): boolean {
  return !!headers.authorization?.trim() || SESSION_COOKIE.test(headers.cookie ?? '');
}

/**
 * The Cache-Control of an answer: an answer to a request with credentials, or one that sets a cookie, is `no-store`
 * unless its route declared it `public` (hashed assets, the region tree, the ledger key) or already forbids storing.
 * Other answers keep what they have (public certificate pages stay cacheable). Returns the value to set, or null to
 * leave the header alone.
 */
export function privateCacheControl(
  headers: { cookie?: string; authorization?: string },
  current: string | undefined,
  setsCookie: boolean,
): string | null {
  if (!setsCookie && !carriesCredentials(headers)) return null;
  if (current && /\b(?:public|no-store)\b/i.test(current)) return null;
  return 'no-store';
}

/** Adds the two `onSend` hooks: `no-store` on private answers, then the linger of early answers. */
export function addAnswerHooks(app: FastifyInstance): void {
  // Private answers are never stored by browsers or shared caches; registered first so every scope inherits it.
  app.addHook('onSend', async (request, reply, payload) => {
    const current = reply.getHeader('cache-control');
    const value = privateCacheControl(
      request.headers,
      typeof current === 'string' ? current : undefined,
      reply.hasHeader('set-cookie'),
    );
    if (value) reply.header('cache-control', value);
    return payload;
  });
  // An answer given before the request body was read keeps its connection a moment, so the client reads it.
  app.addHook('onSend', async (request, reply, payload) => {
    lingerOnEarlyAnswer(request.raw, reply.raw, (name, value) => reply.header(name, value));
    return payload;
  });
}
