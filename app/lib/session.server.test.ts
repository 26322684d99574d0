/** The gateway's encrypted cookie session: round trip, tamper detection, secret rotation, expiry from the token. */
import { describe, expect, it } from 'vitest';
import { opsSessionStorageFor, sessionStorageFor } from './session.server.ts';

const ctx = (secrets: string[]) => ({ sessionSecrets: secrets, secureCookies: true });
const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;

describe('session storage', () => {
  it('round-trips the token and hides it from the cookie text', async () => {
    const storage = sessionStorageFor(ctx(['s1']));
    const session = await storage.getSession(null);
    session.set('token', 'upstream-token-value');
    session.set('expiresAt', Math.floor(Date.now() / 1000) + 3600);
    const header = await storage.commitSession(session);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain('Secure');
    expect(header).toMatch(/Max-Age=(3600|3599)/);
    expect(header).not.toContain('upstream-token-value');
    const again = await storage.getSession(cookieOf(header));
    expect(again.get('token')).toBe('upstream-token-value');
  });

  it('ignores a tampered cookie or one sealed with an unknown secret', async () => {
    const storage = sessionStorageFor(ctx(['s1']));
    const session = await storage.getSession(null);
    session.set('token', 't');
    const cookie = cookieOf(await storage.commitSession(session));
    const value = decodeURIComponent(cookie.split('=')[1]!);
    // Flip the first character of the ciphertext part (every bit of it is significant, unlike a last character).
    const [iv, tag, body] = value.split('.') as [string, string, string];
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    const tampered = `${cookie.split('=')[0]!}=${encodeURIComponent([iv, tag, flipped].join('.'))}`;
    expect((await storage.getSession(tampered)).get('token')).toBeUndefined();
    expect((await sessionStorageFor(ctx(['other'])).getSession(cookie)).get('token')).toBeUndefined();
  });

  it('reads cookies sealed with an older secret after rotation, and seals with the newest', async () => {
    const old = sessionStorageFor(ctx(['old']));
    const s = await old.getSession(null);
    s.set('token', 't-old');
    const cookie = cookieOf(await old.commitSession(s));
    const rotated = sessionStorageFor(ctx(['new', 'old']));
    const read = await rotated.getSession(cookie);
    expect(read.get('token')).toBe('t-old');
    const resealed = cookieOf(await rotated.commitSession(read));
    expect((await sessionStorageFor(ctx(['new'])).getSession(resealed)).get('token')).toBe('t-old');
  });

  it('destroys with an expired cookie', async () => {
    const storage = sessionStorageFor(ctx(['s1']));
    const header = await storage.destroySession(await storage.getSession(null));
    expect(header).toContain('Max-Age=0');
  });

  it('keeps the operator session in its own cookie: neither storage reads or ends the other', async () => {
    // Over plain HTTP the cookies keep their bare names (the __Host- prefix needs Secure; see below).
    const user = sessionStorageFor({ ...ctx(['s1']), secureCookies: false });
    const ops = opsSessionStorageFor({ ...ctx(['s1']), secureCookies: false });
    const u = await user.getSession(null);
    u.set('token', 'user-token');
    const o = await ops.getSession(null);
    o.set('opsToken', 'operator-token');
    o.set('expiresAt', Math.floor(Date.now() / 1000) + 600);
    const userCookie = cookieOf(await user.commitSession(u));
    const opsHeader = await ops.commitSession(o);
    expect(opsHeader).toMatch(/^cz_ops=/);
    expect(opsHeader).toMatch(/Max-Age=(600|599)/);
    const both = `${userCookie}; ${cookieOf(opsHeader)}`;
    expect((await user.getSession(both)).get('token')).toBe('user-token');
    expect((await ops.getSession(both)).get('opsToken')).toBe('operator-token');
    expect((await ops.getSession(userCookie)).get('opsToken')).toBeUndefined();
    expect(await user.destroySession(u)).toMatch(/^cz_session=;/);
    expect(await ops.destroySession(o)).toMatch(/^cz_ops=;/);
  });

  it('prefixes both cookie names with __Host- when cookies are Secure (ASVS 5.0 3.3.1)', async () => {
    const user = sessionStorageFor(ctx(['s1']));
    const ops = opsSessionStorageFor(ctx(['s1']));
    const userHeader = await user.commitSession(await user.getSession(null));
    const opsHeader = await ops.commitSession(await ops.getSession(null));
    for (const header of [userHeader, opsHeader]) {
      expect(header).toContain('; Path=/');
      expect(header).toContain('Secure');
      expect(header).not.toMatch(/Domain=/i);
    }
    expect(userHeader).toMatch(/^__Host-cz_session=/);
    expect(opsHeader).toMatch(/^__Host-cz_ops=/);
    expect(await user.destroySession(await user.getSession(null))).toMatch(/^__Host-cz_session=;/);
  });
});

describe('readCookie', () => {
  it('reads a percent-encoded value and answers null for a missing or malformed one', async () => {
    const { readCookie } = await import('./session.server.ts');
    expect(readCookie('a=1; cz_session=x%2By', 'cz_session')).toBe('x+y');
    expect(readCookie('a=1', 'cz_session')).toBeNull();
    expect(readCookie('cz_session=%E0%A4%A', 'cz_session')).toBeNull();
    const storage = sessionStorageFor(ctx(['s1']));
    expect(
      (await storage.getSession('cz_session=%E0%A4%A; __Host-cz_session=%')).get('token'),
    ).toBeUndefined();
  });
});
