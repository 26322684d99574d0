/** `<html lang>` from the matched routes (decision 028): handle.lang, then loader `lang`, deepest first. */
import { describe, expect, it } from 'vitest';
import { pageLang } from './page-lang.ts';

describe('pageLang', () => {
  it('is zh-CN unless a matched route says otherwise', () => {
    expect(pageLang([])).toBe('zh-CN');
    expect(pageLang([{ handle: undefined, loaderData: { user: null } }, { handle: { bare: true } }])).toBe(
      'zh-CN',
    );
  });
  it('reads handle.lang and a loader lang, the deepest match winning', () => {
    expect(pageLang([{ loaderData: {} }, { handle: { lang: 'en' }, loaderData: undefined }])).toBe('en');
    expect(pageLang([{ loaderData: {} }, { handle: { bare: true }, loaderData: { lang: 'en' } }])).toBe('en');
    expect(pageLang([{ handle: { lang: 'en' } }, { loaderData: { lang: 'zh-CN' } }])).toBe('zh-CN');
  });
  it('ignores values that are not a page language', () => {
    expect(pageLang([{ loaderData: { lang: 'fr' } }, { handle: { lang: 42 } }])).toBe('zh-CN');
  });
});
