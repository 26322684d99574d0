/**
 * TRUST_PROXY of the platform, and whose X-Forwarded-For the embedded platform believes
 * (server/embedded-platform.ts; docs/decisions/033). It listens on 127.0.0.1 only and its one client is the gateway of the same process, so hop 0, the connection's peer, is
 * always trusted; the hops further out are judged by TRUST_PROXY as the gateway reads it (README "Configuration"):
 * unset means `loopback` here (the platform's default), `false`/`0` or a hop count none, `true` all, or a comma list
 * of addresses and CIDRs. Before, a TRUST_PROXY naming the load balancer in front of the gateway (the gateway and its
 * embedded platform read the same environment) left the gateway's own 127.0.0.1 untrusted, so the platform's per-IP
 * limits (logins, SMS, public lookups) counted every browser as 127.0.0.1.
 */
import proxyAddr from '@fastify/proxy-addr';

/**
 * Fastify's `trustProxy` function for the embedded platform: `(address, hop) => trusted`, hop 0 being the peer.
 * `trustProxy` as platform/config.ts reads it (`loopback` when TRUST_PROXY is unset, false for `false`/`0`).
 */
export function embeddedTrustProxy(
  trustProxy: string | boolean,
): (address: string | undefined, hop: number) => boolean {
  if (trustProxy === true || trustProxy === 'true') return () => true;
  // a hop count: Fastify 5 trusts nobody for it (it cannot vouch for the peer), and the gateway reads it so
  if (trustProxy === false || /^\d+$/.test(trustProxy)) return (_address, hop) => hop === 0;
  const beyond = proxyAddr.compile(
    trustProxy
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return (address, hop) => hop === 0 || (address !== undefined && beyond(address, hop));
}

/**
 * TRUST_PROXY as the platform's Fastify `trustProxy`: unset or empty `loopback`; `false`/`0` false; `true` true
 * (Fastify compiles any string as addresses, and `true` is none: it refused to start); anything else as given (a
 * comma list of addresses/CIDRs, or a hop count, which Fastify 5 trusts nobody for).
 */
export function trustProxyOf(value: string | undefined): string | boolean {
  const trust = value?.trim();
  if (trust === undefined || trust === '') return 'loopback';
  if (trust === '0' || trust === 'false') return false;
  return trust === 'true' ? true : trust;
}
