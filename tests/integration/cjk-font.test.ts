/**
 * The Playwright suite's CJK font gate (tests/support/cjk-font.ts, decision 049): which fontconfig answers let it
 * start, and the one line it refuses with otherwise. A fake runner stands in for fc-list and fc-match.
 */
import { describe, expect, it } from 'vitest';
import {
  CJK_FONT_INSTALL,
  CJK_FONT_PACKAGE,
  cjkFontProblem,
  isCjkFamily,
  runFontconfig,
  type FontconfigRunner,
} from '../support/cjk-font.ts';

/** A runner answering fc-list with `listed` and fc-match with `matched`. */
const fake =
  (listed: string, matched: string): FontconfigRunner =>
  (command) =>
    command === 'fc-list' ? listed : matched;

describe('the CJK font gate', () => {
  it('knows CJK families by name, and Latin ones as not', () => {
    for (const family of [
      'Noto Sans CJK SC',
      'Source Han Sans SC',
      'WenQuanYi Zen Hei',
      'Droid Sans Fallback',
      'AR PL UMing CN',
      'DejaVu Sans,Noto Sans CJK SC',
    ])
      expect(isCjkFamily(family), family).toBe(true);
    for (const family of ['DejaVu Sans', 'Liberation Sans', 'DejaVu Math TeX Gyre', 'Hanuman', ''])
      expect(isCjkFamily(family), family).toBe(false);
  });

  it('lets the suite start when fontconfig lists a Chinese family and picks it for sans-serif', () => {
    expect(cjkFontProblem(fake('Noto Sans CJK SC\nNoto Serif CJK SC\n', 'Noto Sans CJK SC'))).toBeNull();
  });

  it('refuses in one line naming the package and its install command otherwise', () => {
    for (const [listed, matched] of [
      ['', ''], // no fontconfig, or no fonts
      ['', 'DejaVu Sans'], // Latin fonts only
      ['Noto Sans CJK SC\n', 'DejaVu Sans'], // a CJK font, but not the one Chinese sans-serif resolves to
    ] as const) {
      const problem = cjkFontProblem(fake(listed, matched));
      expect(problem).toContain(CJK_FONT_PACKAGE);
      expect(problem).toContain(CJK_FONT_INSTALL);
      expect(problem).not.toContain('\n');
    }
  });

  it('asks the real fontconfig without throwing when a tool is missing', () => {
    expect(typeof runFontconfig('fc-match', ['--version'])).toBe('string');
  });
});
