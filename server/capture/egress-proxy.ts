/**
 * The capture's only way out (decision 037): a forward HTTP proxy on loopback that one capture job's Chromium
 * context is pointed at (`proxyServer`, with `<-loopback>` so that not even loopback bypasses it). Every request the
 * page makes — the first, each redirect, each subresource, HTTPS through CONNECT — arrives here, and before any
 * connection the host is resolved (the injectable {@link Resolver}), every address it resolves to is checked
 * (address-policy.ts) and the connection is made to the checked address itself (pinned: no second lookup that DNS
 * rebinding could answer differently). A refused request gets 403 and is recorded with its reason; the connections
 * made are recorded with the address used (the capture's "server IP"). The bytes through the proxy are capped
 * (`maxBytes`); past the cap every tunnel is cut and further requests refused.
 *
 * TLS is end to end (CONNECT is a byte tunnel), so Chromium still checks certificates and the capture reads the
 * chain it saw (CDP securityDetails).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { Duplex } from 'node:stream';
import { addressRefusal, allowKey, isIpLiteral } from './address-policy.ts';

/** Resolves a host name to its addresses (all of them, as `dns.lookup(host, { all: true })`). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver. */
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** A request the proxy refused. */
export interface BlockedRequest {
  /** `https://host:port` for a tunnel, the absolute URL for plain HTTP. */
  target: string;
  /** The reason in Chinese. */
  reason: string;
}

/** A connection the proxy made. */
export interface EgressConnection {
  host: string;
  port: number;
  /** The checked address connected to. */
  address: string;
}

/** Settings of {@link startEgressProxy}. */
export interface EgressProxyOptions {
  resolve?: Resolver;
  /** `address:port` pairs reachable although not public (tests only; address-policy.ts `parseAllowList`). */
  allow?: ReadonlySet<string>;
  /** Most bytes (both directions, all connections) before the proxy cuts everything. */
  maxBytes: number;
  /** Milliseconds a connection may stay idle. */
  idleTimeoutMs?: number;
}

/** A running proxy: its URL for Chromium, what it refused and connected, and how to stop it. */
export interface EgressProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  blocked: BlockedRequest[];
  connections: EgressConnection[];
  /** The address the proxy last connected to for the host of `url` (the server's IP), or null. */
  addressOf(url: string): string | null;
  /** Bytes relayed so far. */
  bytes(): number;
  /** True once `maxBytes` was passed. */
  overLimit(): boolean;
  /** Stops listening and destroys every connection, to the page and to the sites, open or pooled. */
  close(): Promise<void>;
}

/** Headers that concern one hop only (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The checked address to connect to for `host`, or the reason not to. */
async function checkedAddress(
  host: string,
  port: number,
  opts: EgressProxyOptions,
  resolve: Resolver,
): Promise<{ address: string } | { reason: string }> {
  let addresses: string[];
  if (isIpLiteral(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      return { reason: `无法解析域名 ${host}` };
    }
    if (addresses.length === 0) return { reason: `无法解析域名 ${host}` };
  }
  for (const address of addresses) {
    if (opts.allow?.has(allowKey(address, port))) continue;
    const refusal = addressRefusal(address, host);
    if (refusal) return { reason: refusal };
  }
  return { address: addresses[0]! };
}

/** The host of `url` as connections record it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** The host and port of a CONNECT authority (`host:port`, `[v6]:port`), or null. */
function authorityOf(authority: string): { host: string; port: number } | null {
  try {
    const u = new URL(`http://${authority}`);
    if (u.username || u.password || u.pathname !== '/' || u.search) return null;
    return { host: hostOf(u), port: Number(u.port || 443) };
  } catch {
    return null;
  }
}

/**
 * Starts a proxy on 127.0.0.1 with a port of the system's choosing.
 * @returns the running proxy; close it when the job ends
 */
export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const resolve = opts.resolve ?? systemResolver;
  const idle = opts.idleTimeoutMs ?? 30_000;
  const blocked: BlockedRequest[] = [];
  const connections: EgressConnection[] = [];
  const open = new Set<Duplex>();
  let relayed = 0;
  let cut = false;

  /** Counts relayed bytes; past the cap, cuts every connection. */
  const count = (n: number) => {
    relayed += n;
    if (!cut && relayed > opts.maxBytes) {
      cut = true;
      for (const s of open) s.destroy();
    }
  };
  const track = (s: Duplex) => {
    if (open.has(s)) return; // a pooled socket, tracked at its first request
    open.add(s);
    if (s instanceof net.Socket) s.setTimeout(idle, () => s.destroy());
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  // the proxy's own connection pool: no socket of this job's outlives it in a pool shared with other jobs
  const agent = new http.Agent({ keepAlive: true });
  const refuse = (target: string, reason: string) => {
    blocked.push({ target, reason });
    return reason;
  };
  const overLimitReason = () => `取证数据超过上限（${opts.maxBytes} 字节）`;

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('只接受代理请求');
      return;
    }
    const target = url.href;
    const deny = (status: number, reason: string) =>
      res
        .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .end(refuse(target, reason));
    if (url.protocol !== 'http:') return deny(400, `不支持的协议 ${url.protocol}`);
    if (url.username || url.password) return deny(400, '网址不能包含用户名或密码');
    if (cut) return deny(403, overLimitReason());
    const port = Number(url.port || 80);
    const host = hostOf(url);
    const checked = await checkedAddress(host, port, opts, resolve);
    if ('reason' in checked) return deny(403, checked.reason);
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    connections.push({ host, port, address: checked.address });
    const upstream = http.request({
      host: checked.address,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      timeout: idle,
      agent,
    });
    upstream.on('socket', track);
    // the page went away (context closed, job ended): so does its request to the site
    res.on('close', () => upstream.destroy());
    upstream.on('response', (up) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(up.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      }
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.on('data', (chunk: Buffer) => count(chunk.length));
      up.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) deny(502, `无法连接 ${host}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const authority = authorityOf(req.url ?? '');
    const target = `https://${req.url ?? ''}`;
    const deny = (reason: string) => {
      refuse(target, reason);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
      );
    };
    if (!authority) return deny('无效的目标地址');
    if (cut) return deny(overLimitReason());
    const checked = await checkedAddress(authority.host, authority.port, opts, resolve);
    if ('reason' in checked) return deny(checked.reason);
    connections.push({ host: authority.host, port: authority.port, address: checked.address });
    const upstream = net.connect({ host: checked.address, port: authority.port });
    track(upstream);
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.on('data', (chunk: Buffer) => count(chunk.length));
      upstream.on('data', (chunk: Buffer) => count(chunk.length));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => {
      if (!client.destroyed && upstream.connecting) deny(`无法连接 ${authority.host}`);
      client.destroy();
    });
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (s: net.Socket) => track(s));

  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    blocked,
    connections,
    addressOf: (url) => {
      const host = hostOf(new URL(url));
      return connections.findLast((c) => c.host === host)?.address ?? null;
    },
    bytes: () => relayed,
    overLimit: () => cut,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const s of open) s.destroy();
        agent.destroy();
      }),
  };
}
