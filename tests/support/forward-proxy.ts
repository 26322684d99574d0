/**
 * A recording forward proxy for tests of outbound calls behind a corporate egress proxy: absolute-form HTTP
 * requests are forwarded, CONNECT requests tunnelled. Host names under `.test` (RFC 2606: never resolvable) are
 * reached at 127.0.0.1 on the requested port, so a call that names such a host can only succeed through this proxy;
 * every target is recorded (`GET http://host:port/path`, `CONNECT host:port`).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** The running proxy: its URL, what it was asked for, and how to stop it. */
export interface ForwardProxy {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

/** 127.0.0.1 for `*.test`, else the name itself. */
const addressOf = (host: string) => (host.endsWith('.test') ? '127.0.0.1' : host);

/** Starts the proxy on a free loopback port. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form only');
      return;
    }
    seen.push(`${req.method} ${target.href}`);
    const upstream = http.request(
      {
        host: addressOf(target.hostname),
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), addressOf(host ?? ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
