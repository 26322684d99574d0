/** The QR file-URL token (spec 01 §2.3): round trips, refuses forgeries, rotates secrets; storage-host rewrite. */
import { describe, expect, it } from 'vitest';
import { decodeFileToken, encodeFileToken, rewriteStorageHost } from './file-token.server.ts';

describe('file token', () => {
  const urls = [
    '/api/file/BQ2026ABC?exp=1795426816&sig=ab12',
    'https://oss.example.com/a/b/c.pdf?x=1+2&y=3=4',
    'https://存证.example.cn/证据/合同 扫描件.pdf?名称=租赁+合同',
    '/a//b///c',
    '?',
  ];
  it('round-trips URLs with /, +, = and non-ASCII, and has the spec shape', () => {
    for (const url of urls) {
      const token = encodeFileToken(url, 's1');
      expect(token.slice(0, 23)).toMatch(/^[0-9A-Za-z]{23}$/);
      expect(token.slice(23)).not.toContain('/');
      expect(Buffer.from(token.slice(23).replace(/\*/g, '/'), 'base64').toString('utf8')).toBe(url);
      expect(decodeFileToken(token, ['s1'])).toBe(url);
    }
  });
  it('refuses a forged or altered token', () => {
    const token = encodeFileToken('/api/file/BQ1?exp=1&sig=2', 's1');
    const other = Buffer.from('/api/file/BQ2?exp=1&sig=2').toString('base64').replace(/\//g, '*');
    expect(decodeFileToken(token.slice(0, 23) + other, ['s1'])).toBeNull();
    expect(decodeFileToken('A'.repeat(23) + token.slice(23), ['s1'])).toBeNull();
    expect(decodeFileToken(token, ['other-secret'])).toBeNull();
    expect(decodeFileToken(token.slice(0, 30), ['s1'])).toBeNull();
    expect(decodeFileToken('short', ['s1'])).toBeNull();
    expect(decodeFileToken(token.slice(0, 23) + '!!!', ['s1'])).toBeNull();
  });
  it('accepts tokens made with an older secret after rotation', () => {
    const token = encodeFileToken('/x', 'old');
    expect(decodeFileToken(token, ['new', 'old'])).toBe('/x');
  });
  it('rewrites configured storage hosts only', () => {
    const rules = 'oss.old.com=cos.new.com, a.b=c.d';
    expect(rewriteStorageHost('https://oss.old.com/k/v.pdf?s=1', rules)).toBe(
      'https://cos.new.com/k/v.pdf?s=1',
    );
    expect(rewriteStorageHost('https://other.com/k', rules)).toBe('https://other.com/k');
    expect(rewriteStorageHost('/api/file/BQ1', rules)).toBe('/api/file/BQ1');
  });
});
