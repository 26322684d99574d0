/**
 * The load context of the pages (app/context.ts `GatewayLoadContext`), built per request from the gateway's
 * configuration and what the request brings (its CSP nonce, id, client address, scheme).
 */
import { RouterContextProvider } from 'react-router';
import type { GatewayLoadContext } from '../../app/context.ts';
import type { GatewayConfig } from '../config/server.ts';

/**
 * Builds the load context of one request. A `RouterContextProvider` carrying the fields as own properties: with
 * `future.v8_middleware` React Router rejects anything that is not a provider, and without it loaders read the
 * fields as on a plain object; either way `context.cspNonce` etc. work. `httpsRequest`: the request came over
 * https (directly or, with TRUST_PROXY, per X-Forwarded-Proto), so its cookies are Secure and `__Host-` named.
 */
export function createLoadContext(
  config: GatewayConfig,
  upstreamUrl: string,
  cspNonce: string,
  clientIp = '',
  documents?: Pick<GatewayLoadContext, 'printPage' | 'internalKey' | 'platformCall'>,
  requestId = '',
  httpsRequest = false,
): RouterContextProvider & GatewayLoadContext {
  const fields: GatewayLoadContext = {
    cspNonce,
    requestId,
    clientIp,
    upstreamUrl,
    sessionSecrets: config.sessionSecrets,
    // SECURE_COOKIES, or a request that arrived over https as a trusted proxy says (X-Forwarded-Proto with
    // TRUST_PROXY; Fastify ignores the header from a peer TRUST_PROXY does not name)
    secureCookies: config.secureCookies || httpsRequest,
    basePath: config.basePath,
    maxUploadBytes: config.maxUploadBytes,
    formBodyLimitBytes: config.formBodyLimitBytes,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    announcement: config.announcement,
    site: config.site,
    ...documents,
  };
  return Object.assign(new RouterContextProvider(), fields);
}
