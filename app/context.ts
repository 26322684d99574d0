/**
 * The load context every loader and action receives: its shape (`GatewayLoadContext`), declared here, where the
 * route modules use it, and built per request by the gateway (`createLoadContext` in server/app.ts, which imports
 * this type). A plain object typed by augmenting AppLoadContext: a `createContext` token would exist twice (once in
 * the gateway, once inside the bundled server build) and never match; see docs/decisions/003-load-context.md.
 */
import 'react-router';
import type { SiteFacts } from '../contract/issuer.ts';
import type { PlatformCall } from '../contract/platform-call.ts';

/**
 * What every loader and action receives as `context`. Values are per process except `cspNonce` and `clientIp`,
 * which are per request.
 */
export interface GatewayLoadContext {
  /** The request's CSP script nonce (helmet `enableCSPNonces`, `reply.cspNonce.script`): put it on inline scripts. */
  cspNonce: string;
  /** The request's id (X-Request-Id; lib/request-id.ts): sent upstream, shown on the error page. */
  requestId: string;
  /** Base URL of the upstream API without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  upstreamUrl: string;
  /** Cookie session secrets, newest first (SESSION_SECRET comma list, or the generated key). */
  sessionSecrets: string[];
  /** Set `Secure` on cookies (SECURE_COOKIES, behind TLS). */
  secureCookies: boolean;
  /**
   * BASE_PATH as server/config/server.ts normalises it (`/cunzheng`), or ''/absent at the root: the path of cookies and the
   * prefix of absolute URLs built outside React Router (docs/decisions/047-base-path.md).
   */
  basePath?: string;
  /** Upload limit in bytes (MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** Largest form-encoded page POST in bytes (FORM_BODY_LIMIT_BYTES); app/lib/form-body.server.ts enforces it. */
  formBodyLimitBytes: number;
  /** Milliseconds the upstream may stay silent before a call fails as "connection failed" (UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs: number;
  /**
   * The announcement banner window (ANNOUNCEMENT_FROM/UNTIL/TEXT, parsed by server/config/server.ts): ISO datetimes and
   * the text, or null when none is configured.
   */
  announcement: { from: string; until: string; text: string } | null;
  /**
   * What the pages print about the site, from the gateway's configuration (server/config/gateway.ts): PUBLIC_URL,
   * the issuer (PLATFORM_OPERATOR, NOTARY_OFFICE, SUPPORT_CONTACT) and STORAGE_HOST_REWRITE. Pages never read the
   * environment themselves (docs/decisions/050-configuration.md).
   */
  site: SiteFacts;
  /** The browser's address as the gateway sees it (Fastify `request.ip`, honouring TRUST_PROXY); forwarded to the
   * upstream as X-Forwarded-For so per-client limits count browsers, not the gateway. */
  clientIp: string;
  /**
   * Prints the gateway page `path` as the holder of `cookie` (the caller's Cookie header) sees it to an A4 PDF signed
   * (PAdES) with `reason` by the platform's document signer or, `signer` 'notary', the notary office's
   * (server/pdf/page-printer.ts); absent without a UI build.
   * @throws PagePrintError (its `status`) when the page does not answer 2xx; the pool's busy/timeout errors
   */
  printPage?: (
    path: string,
    cookie: string | null,
    reason: string,
    signer?: 'platform' | 'notary',
  ) => Promise<Buffer>;
  /**
   * The platform's internal key, for the calls that take documents only the gateway makes (the notarisation
   * documents). Server-only; absent when the gateway has none.
   */
  internalKey?: string;
  /**
   * The embedded platform's call without the loopback HTTP hop (contract/platform-call.ts), which `apiCall` uses for
   * envelope calls when present. Absent in front of another upstream (UPSTREAM_URL) and in tests of a fake one.
   */
  platformCall?: PlatformCall;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends GatewayLoadContext {}
}
