/**
 * Outbound calls through a corporate egress proxy (docs/decisions/043-corporate-gateway.md): `HTTPS_PROXY`,
 * `HTTP_PROXY` and `NO_PROXY` (or their lower-case spellings, as curl reads them; parsed with the rest of the
 * configuration, lib/config-shared.ts) decide, per target,
 * whether a call to a provider — Alipay (alipay-sdk over urllib/undici), WeChat Pay (wechatpay-axios-plugin over
 * axios and node:http), Tencent Cloud SMS (its SDK over node-fetch), a TSA or a witness (fetch) — goes through the
 * proxy (CONNECT for https, absolute-form for http) or straight. Every client gets its agent or dispatcher from
 * here, so one reading applies to all of them; each library's own half-reading of the environment (axios reads
 * the variables itself, the Tencent SDK reads only a lower-case `http_proxy` and no NO_PROXY) is switched off.
 *
 * Loopback (`localhost`, `*.localhost`, 127.0.0.1, ::1) is never proxied: the gateway reaches the embedded
 * platform there. Other internal hosts (a separate platform's UPSTREAM_URL, the database) belong in NO_PROXY.
 * A corporate CA is trusted through Node's own `NODE_EXTRA_CA_CERTS` (README "Behind a corporate gateway").
 */
import http from 'node:http';
import https from 'node:https';
import { EnvHttpProxyAgent, setGlobalDispatcher, type Dispatcher } from 'undici';

/** Which proxy serves which scheme, and the hosts that bypass it (comma-separated, curl's NO_PROXY syntax). */
export interface ProxyEnv {
  HTTP_PROXY?: string;
  HTTPS_PROXY?: string;
  NO_PROXY: string;
}

/** Hosts never sent through a proxy. */
const LOOPBACK = ['localhost', '.localhost', '127.0.0.1', '::1'];

/** The first non-empty value of `names` in `env`. */
function first(env: Readonly<Record<string, string | undefined>>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/**
 * Reads the proxy settings of `env` (upper case wins over lower case); `direct` adds hosts that bypass the proxy.
 * @returns null when neither HTTPS_PROXY nor HTTP_PROXY is set (every call goes straight)
 * @throws TypeError when a proxy is not an http(s) URL
 */
export function outboundProxyEnv(
  env: Readonly<Record<string, string | undefined>>,
  direct: readonly string[] = [],
): ProxyEnv | null {
  const httpsProxy = first(env, 'HTTPS_PROXY', 'https_proxy');
  const httpProxy = first(env, 'HTTP_PROXY', 'http_proxy');
  if (!httpsProxy && !httpProxy) return null;
  for (const p of [httpsProxy, httpProxy]) {
    if (p && !/^https?:\/\/[^\s]+$/.test(p)) throw new TypeError(`proxy ${p} is not an http(s) URL`);
  }
  const noProxy = [first(env, 'NO_PROXY', 'no_proxy'), ...LOOPBACK, ...direct].filter(Boolean).join(',');
  return {
    ...(httpProxy ? { HTTP_PROXY: httpProxy } : {}),
    ...(httpsProxy ? { HTTPS_PROXY: httpsProxy } : {}),
    NO_PROXY: noProxy,
  };
}

/** Node agents for `proxy` (node:http's `proxyEnv`, Node ≥ 24.5): for axios and node-fetch based clients. */
export function proxyAgents(proxy: ProxyEnv): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  return {
    httpAgent: new http.Agent({ keepAlive: true, proxyEnv: { ...proxy } }),
    httpsAgent: new https.Agent({ keepAlive: true, proxyEnv: { ...proxy } }),
  };
}

/** An undici dispatcher for `proxy`: for fetch and urllib (alipay-sdk). */
export function proxyDispatcher(proxy: ProxyEnv): Dispatcher {
  return new EnvHttpProxyAgent({
    ...(proxy.HTTP_PROXY ? { httpProxy: proxy.HTTP_PROXY } : {}),
    ...(proxy.HTTPS_PROXY ? { httpsProxy: proxy.HTTPS_PROXY } : {}),
    noProxy: proxy.NO_PROXY,
  });
}

/**
 * The proxy a client uses: `configured`, or none when absent. The platform's configuration gives every provider
 * config the process's outbound proxy (platform/config.ts); tests and a provider reached differently set their own.
 */
export function clientProxy(configured: ProxyEnv | null | undefined): ProxyEnv | null {
  return configured ?? null;
}

/**
 * axios options (wechatpay-axios-plugin) for `configured` ({@link clientProxy}): agents with `proxyEnv`, which axios
 * (≥ 1.12 on Node ≥ 24.5) leaves to decide, or — without a proxy — `proxy: false` so that axios does not read the
 * environment itself (`proxy: false` with such agents would make axios replace them by direct ones).
 */
export function outboundAgents(configured?: ProxyEnv | null) {
  const proxy = clientProxy(configured);
  return proxy ? proxyAgents(proxy) : { proxy: false as const };
}

/**
 * Routes this thread's `fetch` (TSA, witnesses, the gateway's jobs) through `proxy`: undici's global dispatcher,
 * which Node's fetch shares. Call once per thread at start (the embedded platform's worker too) with the settings
 * of the process's configuration (lib/config-shared.ts `outboundProxyOf`); null changes nothing.
 * @returns `proxy`
 */
export function installProxy(proxy: ProxyEnv | null): ProxyEnv | null {
  if (proxy) setGlobalDispatcher(proxyDispatcher(proxy));
  return proxy;
}

/**
 * {@link installProxy} for the proxy settings of `env` (a test's own); `direct`: hosts reached without the proxy
 * besides NO_PROXY and loopback.
 * @returns the settings applied, or null when no proxy is set (nothing changed)
 * @throws TypeError when a proxy is not an http(s) URL
 */
export function installOutboundProxy(
  env: Readonly<Record<string, string | undefined>>,
  direct: readonly string[] = [],
): ProxyEnv | null {
  return installProxy(outboundProxyEnv(env, direct));
}
