/**
 * The gateway's security headers (helmet), set on every answer: CSP with per-request script and style nonces,
 * frame, referrer and resource rules, HSTS behind TLS. helmet builds the values once at start (@fastify/helmet
 * builds a new helmet middleware, parsing every option again, on every request: about 5 % of a proxied `/api` call's
 * CPU, decision 051); each request adds only its nonces. Hashed assets drop the document-only ones afterwards;
 * `/api` JSON keeps only `frame-ancestors 'none'` of them (server/pages/asset-headers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { randomPool } from '../../app/lib/random-pool.server.ts';

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

/** Stand-ins for the nonces while helmet builds the headers once (letters only: valid CSP source characters). */
const PLACEHOLDER: CspNonces = { script: 'cunzhengscriptnonce', style: 'cunzhengstylenonce' };

/**
 * The headers helmet sets for `options`, as [name, value] pairs in its order, with the placeholders still in the CSP:
 * helmet runs once, against a response that records what it sets (it validates every directive then, so a bad
 * directive fails the start, not a request).
 * @throws what helmet throws for invalid options or directives
 */
function helmetHeaders(options: Parameters<typeof helmet>[0]): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return [...headers];
}

/**
 * Adds the headers to every answer of `app` (an `onRequest` hook on the root, registered before routes) and
 * decorates `reply.cspNonce`. `directives` are helmet-syntax CSP directives ({@link cspDirectives}); the
 * nonces are appended to `scriptSrc` and `styleSrc`. helmet computes the header values once; a request only draws
 * its nonces and sets the values (running helmet's twelve middlewares and CSP serialiser per request was ~3 % of an
 * anonymous page's CPU; decision 032).
 */
export function addSecurityHeaders(
  app: FastifyInstance,
  opts: { directives: Record<string, string[] | null>; hsts: boolean },
): void {
  const { scriptSrc = [], styleSrc = [], ...rest } = opts.directives;
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...rest,
        scriptSrc: [...(scriptSrc ?? []), `'nonce-${PLACEHOLDER.script}'`],
        styleSrc: [...(styleSrc ?? []), `'nonce-${PLACEHOLDER.style}'`],
      },
    },
    ...pageOptions(opts.hsts),
  });
  const fixed = headers.filter(([name]) => name !== CSP);
  const csp = headers.find(([name]) => name === CSP)?.[1] ?? '';
  // The CSP around its two nonces: [before script nonce, between, after style nonce] (script-src precedes style-src).
  const [head, middle, tail] = splitAround(csp, PLACEHOLDER.script, PLACEHOLDER.style);
  app.decorateReply('cspNonce', null as unknown as CspNonces);
  const draw = nonceSource();
  app.addHook('onRequest', (_request, reply, done) => {
    const nonces = draw();
    reply.cspNonce = nonces;
    const res = reply.raw;
    res.setHeader(CSP, `${head}${nonces.script}${middle}${nonces.style}${tail}`);
    for (const [name, value] of fixed) res.setHeader(name, value);
    done();
  });
}

const CSP = 'Content-Security-Policy';

/**
 * The Content-Security-Policy directives (helmet syntax). helmet appends `'nonce-…'` to script-src and style-src
 * per request. Because a nonce makes browsers ignore `'unsafe-inline'` in style-src, inline `<style>` and
 * `style="…"` are allowed through the CSP3 style-src-elem / style-src-attr directives.
 */
export function cspDirectives(opts: {
  secure: boolean;
  development: boolean;
}): Record<string, string[] | null> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    styleSrcElem: ["'self'", "'unsafe-inline'"],
    styleSrcAttr: ["'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    // Vite's HMR client talks over a WebSocket on its own port in development.
    connectSrc: opts.development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    // Only behind TLS: over plain HTTP on a LAN address it would send the forms and assets to a dead https port.
    upgradeInsecureRequests: opts.secure ? [] : null,
  };
}

/**
 * A source of fresh nonce pairs (32 hex digits each, 128 bits of CSPRNG output apiece), from a pooled random buffer
 * (app/lib/random-pool.server.ts).
 */
function nonceSource(): () => CspNonces {
  const draw = randomPool(32);
  return () => {
    const hex = draw('hex');
    return { script: hex.slice(0, 32), style: hex.slice(32) };
  };
}

/**
 * `text` cut at the one occurrence of `first` and then of `second`: [before first, between, after second].
 * @throws when either is missing or they come in the other order (the directives lost a nonce)
 */
function splitAround(text: string, first: string, second: string): [string, string, string] {
  const a = text.indexOf(first);
  const b = text.indexOf(second, a + first.length);
  if (a < 0 || b < 0) throw new Error('the CSP lost its nonce sources');
  return [text.slice(0, a), text.slice(a + first.length, b), text.slice(b + second.length)];
}

/**
 * The security headers of a page the gateway writes itself without the React Router document (a bad URL's page,
 * server/http/framework-errors.ts): helmet's set with a CSP that allows no resource at all (the page is plain markup),
 * no framing, HSTS when `hsts`. Built once per call; callers keep the result.
 */
export function plainPageHeaders(hsts: boolean): [string, string][] {
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    ...pageOptions(hsts),
  });
}

/** helmet's options every page shares beside its CSP: no framing, HSTS behind TLS, the referrer kept for our pages. */
function pageOptions(hsts: boolean): Parameters<typeof helmet>[0] {
  return {
    frameguard: { action: 'deny' }, // X-Frame-Options agreeing with frame-ancestors 'none'
    strictTransportSecurity: hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Certificates are opened from links in mail and chat; keep the path for our own pages only.
    referrerPolicy: { policy: 'same-origin' },
  };
}
