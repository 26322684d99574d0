/**
 * The small HTML pages the loopback provider sandboxes serve to a tester (Alipay face and cashier, WeChat Pay's
 * code_url page): no script, no third party, never cached, no Referer (the page's id is its only secret), plain forms
 * that post back to the page. Sandbox-only; production never serves them.
 */
import type { FastifyReply } from 'fastify';

/** Escapes text for HTML element content and double-quoted attributes. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Options of {@link sendSandboxPage}. */
export interface SandboxPageOptions {
  /** The heading colour (the provider's brand colour). */
  accent?: string;
  /** Adds `<meta http-equiv="refresh" content="1;url=…">`: the way back to the merchant. */
  refreshTo?: string;
}

/** Sends the page `title` with `body` (HTML) and `status`. */
export function sendSandboxPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
  opts: SandboxPageOptions = {},
) {
  const refresh = opts.refreshTo ? `<meta http-equiv="refresh" content="1;url=${esc(opts.refreshTo)}">` : '';
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">${refresh}` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>` +
        `<style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}` +
        `h1{color:${opts.accent ?? '#222'}}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}` +
        `.amount{font-size:2rem}.actions{display:flex;gap:1rem}form{display:inline-block}` +
        `button{font-size:1.1rem;padding:.5rem 1.5rem}</style></head>` +
        `<body><h1>${esc(title)}</h1>${body}</body></html>`,
    );
}
