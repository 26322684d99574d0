/**
 * The CSRF cookie: React Router's signed-cookie wire format kept (cookies issued by `createCookie` stay valid and the
 * other way round), tampering and unknown secrets refused, secrets rotate; tokens validate only against their cookie.
 */
import { describe, expect, it } from 'vitest';
import { createCookie, type AppLoadContext } from 'react-router';
import { commitCsrfToken, signedCookie, validateCsrf } from './csrf.server.ts';

const pair = (header: string) => header.split(';')[0]!;

describe('signedCookie', () => {
  it('reads what React Router createCookie signed and writes what it reads, with the same attributes', async () => {
    const ours = signedCookie('cz_csrf', { secrets: ['s1'], secure: true });
    const theirs = createCookie('cz_csrf', {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      secrets: ['s1'],
    });
    const value = { token: 'abc.def', 中文: '证据' };
    expect(await ours.parse(pair(await theirs.serialize(value)))).toEqual(value);
    expect(await theirs.parse(pair(await ours.serialize(value)))).toEqual(value);
    expect(await ours.parse(pair(await ours.serialize('tok')))).toBe('tok');
    const header = await ours.serialize('tok');
    expect(header).toMatch(/^cz_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    expect(await signedCookie('cz_csrf', { secrets: ['s1'], secure: false }).serialize('t')).not.toContain(
      'Secure',
    );
  });

  it('refuses a tampered value, a tampered signature, an unsigned value and an unknown secret', async () => {
    const cookie = signedCookie('c', { secrets: ['s1'], secure: false });
    const [name, raw] = pair(await cookie.serialize('token-1')).split('=') as [string, string];
    const [value, hash] = decodeURIComponent(raw).split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify('token-2')).toString('base64');
    expect(await cookie.parse(`${name}=${encodeURIComponent(`${forged}.${hash}`)}`)).toBeNull();
    const flipped = (hash[0] === 'A' ? 'B' : 'A') + hash.slice(1);
    expect(await cookie.parse(`${name}=${encodeURIComponent(`${value}.${flipped}`)}`)).toBeNull();
    expect(await cookie.parse(`${name}=${encodeURIComponent(value)}`)).toBeNull();
    expect(await signedCookie('c', { secrets: ['other'], secure: false }).parse(`${name}=${raw}`)).toBeNull();
    expect(await cookie.parse('other=1')).toBeNull();
    expect(await cookie.parse(null)).toBeNull();
  });

  it('verifies with every secret and signs with the first', async () => {
    const old = signedCookie('c', { secrets: ['old'], secure: false });
    const rotated = signedCookie('c', { secrets: ['new', 'old'], secure: false });
    expect(await rotated.parse(pair(await old.serialize('t')))).toBe('t');
    expect(await old.parse(pair(await rotated.serialize('t')))).toBeNull();
    expect(
      await signedCookie('c', { secrets: ['new'], secure: false }).parse(pair(await rotated.serialize('t'))),
    ).toBe('t');
  });
});

describe('CSRF tokens', () => {
  const ctx = { sessionSecrets: ['s1'], secureCookies: false } as unknown as AppLoadContext;
  const form = (csrf: string) => {
    const f = new FormData();
    f.set('csrf', csrf);
    return f;
  };

  it('issues a token with its cookie once, and accepts only that token with that cookie', async () => {
    const [token, setCookie] = await commitCsrfToken(new Request('http://x/login'), ctx);
    expect(setCookie).toMatch(/^cz_csrf=/);
    const cookie = pair(setCookie!);
    const withCookie = new Request('http://x/login', { headers: { cookie } });
    const [again, none] = await commitCsrfToken(withCookie, ctx);
    expect([again, none]).toEqual([token, null]);
    await expect(validateCsrf(form(token), withCookie, ctx)).resolves.toBeUndefined();
    const [other] = await commitCsrfToken(new Request('http://x/login'), ctx);
    await expect(validateCsrf(form(other), withCookie, ctx)).rejects.toMatchObject({ init: { status: 403 } });
    await expect(validateCsrf(form(token), new Request('http://x/login'), ctx)).rejects.toMatchObject({
      init: { status: 403 },
    });
  });

  it('draws 256-bit base64url tokens, each new, and still accepts a token of the earlier signed form', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 300 }, async () => (await commitCsrfToken(new Request('http://x/'), ctx))[0]),
    );
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Set before this change: remix-utils' `token "." base64url(SHA-256(token))`, in a cookie signed as always.
    const earlier = 'u4pQJzQ8oX1u0nVt8m1Jbq2f3vYw6bqZ9cG1eD7hK2s.g8F0w3Yv9yQz2d0Zq2m2m7g2vQ0f0mH3xF5d9bqJx1E';
    const cookie = pair(await signedCookie('cz_csrf', { secrets: ['s1'], secure: false }).serialize(earlier));
    const withCookie = new Request('http://x/login', { headers: { cookie } });
    await expect(validateCsrf(form(earlier), withCookie, ctx)).resolves.toBeUndefined();
    // The same token in a cookie signed under another secret is refused.
    const forged = pair(await signedCookie('cz_csrf', { secrets: ['s2'], secure: false }).serialize(earlier));
    await expect(
      validateCsrf(form(earlier), new Request('http://x/login', { headers: { cookie: forged } }), ctx),
    ).rejects.toMatchObject({ init: { status: 403 } });
  });
});
