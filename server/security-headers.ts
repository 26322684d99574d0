/**
 * The gateway's security headers (helmet), set on every answer: CSP with per-request script and style nonces,
 * frame, referrer and resource rules, HSTS behind TLS. Built once with helmet's own per-request directive functions
 * (https://helmetjs.github.io/ "Content-Security-Policy" nonces): @fastify/helmet builds a new helmet middleware
 * (parsing every option again) on every request, about 5 % of a proxied `/api` call's CPU (decision 032).
 * `/api` JSON and hashed assets drop the document-only ones afterwards (asset-headers.ts).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** The nonces of one answer's CSP (32 hex digits each). */
export interface CspNonces {
  script: string;
  style: string;
}

declare module 'fastify' {
  interface FastifyReply {
    /** This answer's CSP nonces: put `script` on inline scripts (app/entry.server.tsx via the load context). */
    cspNonce: CspNonces;
  }
}

/** Where the raw response carries its nonces for helmet's directive functions. */
const NONCES = Symbol('cunzheng.cspNonces');
type WithNonces = ServerResponse & { [NONCES]?: CspNonces };

/** A CSP source naming this answer's `kind` nonce. */
const nonceSource = (kind: keyof CspNonces) => (_req: IncomingMessage, res: ServerResponse) =>
  `'nonce-${(res as WithNonces)[NONCES]?.[kind] ?? ''}'`;

/**
 * Adds the headers to every answer of `app` (an `onRequest` hook on the root, registered before routes) and
 * decorates `reply.cspNonce`. `directives` are helmet-syntax CSP directives (server/app.ts `cspDirectives`); the
 * nonces are appended to `scriptSrc` and `styleSrc`.
 */
export function addSecurityHeaders(
  app: FastifyInstance,
  opts: { directives: Record<string, string[] | null>; hsts: boolean },
): void {
  const { scriptSrc = [], styleSrc = [], ...rest } = opts.directives;
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...rest,
        scriptSrc: [...(scriptSrc ?? []), nonceSource('script')],
        styleSrc: [...(styleSrc ?? []), nonceSource('style')],
      },
    },
    frameguard: { action: 'deny' }, // X-Frame-Options agreeing with frame-ancestors 'none'
    strictTransportSecurity: opts.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Certificates are opened from links in mail and chat; keep the path for our own pages only.
    referrerPolicy: { policy: 'same-origin' },
  });
  app.decorateReply('cspNonce', null as unknown as CspNonces);
  app.addHook('onRequest', (request, reply, done) => {
    const hex = randomBytes(32).toString('hex');
    const nonces = { script: hex.slice(0, 32), style: hex.slice(32) };
    reply.cspNonce = nonces;
    (reply.raw as WithNonces)[NONCES] = nonces;
    headers(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}
