/**
 * The page's `<html>` element (docs/decisions/031). The server renders it with React. In the production browser build
 * Preact hydrates the page, and Preact renders into the `<html>` element rather than the document: there the frame
 * is the element's children (`<head>`, `<body>`) and `lang` is kept in step by an effect, for client-side navigation
 * between the Chinese and English pages. `import.meta.env.BROWSER_PREACT` is set by vite.config.ts.
 */
import { useEffect, type ReactNode } from 'react';

/** `<html lang={lang}>{children}</html>` as each renderer needs it; `lang` is a BCP 47 tag ('zh-CN', 'en'). */
export function DocumentRoot({ lang, children }: { lang: string; children: ReactNode }) {
  if (import.meta.env.BROWSER_PREACT) return <HtmlChildren lang={lang}>{children}</HtmlChildren>;
  return <html lang={lang}>{children}</html>;
}

function HtmlChildren({ lang, children }: { lang: string; children: ReactNode }) {
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return <>{children}</>;
}
