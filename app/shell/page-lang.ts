/**
 * The language of the page a request renders, for `<html lang>` (decision 028): the deepest matched route that says
 * so, by its module's `handle.lang` (a route that is always English, such as /English/attestation/{id}) or its
 * loader's `lang` (a module shared by a Chinese and an English route, such as the safekeeping lookup and the print
 * view). Anything else is Chinese (zh-CN), the product's language.
 */

/** The languages pages are written in. */
export type PageLang = 'zh-CN' | 'en';

/** What `pageLang` reads of a route match (react-router's UIMatch has these fields). */
export interface LangMatch {
  handle?: unknown;
  loaderData?: unknown;
}

function langOf(value: unknown): PageLang | null {
  if (typeof value !== 'object' || value === null || !('lang' in value)) return null;
  const lang = (value as { lang: unknown }).lang;
  return lang === 'en' || lang === 'zh-CN' ? lang : null;
}

/** The page language of `matches` (root first, as useMatches gives them). */
export function pageLang(matches: readonly LangMatch[]): PageLang {
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i]!;
    const lang = langOf(m.handle) ?? langOf(m.loaderData);
    if (lang) return lang;
  }
  return 'zh-CN';
}
