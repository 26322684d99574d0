/**
 * The CJK font gate of the Playwright suite (decision 049): without a font for Chinese, Chromium lays out every
 * Chinese character as an empty box of one width, so layout and axe checks pass or fail on a page no user sees.
 * playwright.config.ts asks {@link cjkFontProblem} before anything starts; it asks fontconfig, as Chromium does, which
 * family a Chinese sans-serif resolves to.
 */
import { execFileSync } from 'node:child_process';

/** The Debian package that brings the fonts, and the command that installs it. */
export const CJK_FONT_PACKAGE = 'fonts-noto-cjk';
export const CJK_FONT_INSTALL = `apt-get install -y ${CJK_FONT_PACKAGE}`;

/** Family names of fonts that cover Chinese: Noto/Source Han (CJK, SC), WenQuanYi, Droid Sans Fallback, AR PL. */
const CJK_FAMILY = /CJK|\bSC\b|\bHan\b|WenQuanYi|Droid Sans Fallback|AR PL/i;

/** Whether the family name `family` (one fontconfig family, or a comma-separated list) names a CJK font. */
export function isCjkFamily(family: string): boolean {
  return family.split(',').some((name) => CJK_FAMILY.test(name.trim()));
}

/** Runs a fontconfig command and returns its standard output ('' when it is missing or fails). */
export type FontconfigRunner = (command: 'fc-match' | 'fc-list', args: string[]) => string;

/** The real runner: the fontconfig tools on PATH. */
export const runFontconfig: FontconfigRunner = (command, args) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
};

/**
 * Why the machine cannot lay out Chinese, in one line, or null when it can: fontconfig lists at least one family
 * for `zh-cn`, and the sans-serif it picks for Chinese is one of them (a CJK family, not a Latin fallback).
 */
export function cjkFontProblem(run: FontconfigRunner = runFontconfig): string | null {
  const listed = run('fc-list', [':lang=zh-cn', 'family']).trim();
  const matched = run('fc-match', ['-f', '%{family}', 'sans-serif:lang=zh-cn']).trim();
  if (listed !== '' && isCjkFamily(matched)) return null;
  const found = matched === '' ? 'no font at all' : `"${matched}"`;
  return (
    `No CJK font: fc-match 'sans-serif:lang=zh-cn' resolves to ${found}, so pages would lay out Chinese as ` +
    `empty boxes. Install the Debian package ${CJK_FONT_PACKAGE}: ${CJK_FONT_INSTALL}`
  );
}
