/**
 * Old engines (decision 030): IE11 and Android 4.x WebViews drop any declaration with var(). In the built
 * stylesheets every such declaration must follow the same property with a plain value (postcss-custom-properties,
 * vite.config.ts), or the 登录 button turns white on white. Reads the production build's CSS with PostCSS.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postcss, { type Declaration } from 'postcss';
import { describe, expect, it } from 'vitest';
import { BUILD_DIR } from '../support/integration.ts';

const assets = path.join(BUILD_DIR, 'client', 'assets');

/** Declarations using var() with no plain declaration of the same property right before them. */
function withoutFallback(css: string): string[] {
  const missing: string[] = [];
  postcss.parse(css).walkDecls((decl) => {
    if (!decl.value.includes('var(') || decl.prop.startsWith('--')) return;
    const prev = decl.prev();
    const ok =
      prev?.type === 'decl' &&
      (prev as Declaration).prop === decl.prop &&
      !(prev as Declaration).value.includes('var(');
    if (!ok)
      missing.push(
        `${(decl.parent as { selector?: string }).selector ?? '?'} { ${decl.prop}: ${decl.value} }`,
      );
  });
  return missing;
}

describe('built stylesheets for old engines', () => {
  it('give every var() declaration a plain fallback before it', () => {
    expect(existsSync(assets), 'run `npm run build` first').toBe(true);
    const files = readdirSync(assets).filter((f) => f.endsWith('.css'));
    expect(files.length).toBeGreaterThan(0);
    let uses = 0;
    const missing: string[] = [];
    for (const f of files) {
      const css = readFileSync(path.join(assets, f), 'utf8');
      uses += (css.match(/var\(--/g) ?? []).length;
      missing.push(...withoutFallback(css).map((m) => `${f}: ${m}`));
    }
    expect(uses).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('the check itself catches a declaration without one', () => {
    expect(withoutFallback('a{color:var(--ink)}')).toEqual(['a { color: var(--ink) }']);
    expect(withoutFallback('a{color:#111;color:var(--ink)}')).toEqual([]);
  });
});
