/**
 * The embedded platform's trust in X-Forwarded-For (platform/core/trust-proxy.ts), through Fastify's own
 * `request.ip`: the gateway (the connection's peer) is always believed, the hops beyond it per TRUST_PROXY.
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { embeddedTrustProxy } from './trust-proxy.ts';

/** `request.ip` of a request from `peer` carrying `forwardedFor`, with Fastify's `trustProxy` set to `trust`. */
async function ipSeen(
  trust: FastifyServerOptions['trustProxy'],
  peer: string,
  forwardedFor: string,
): Promise<string> {
  const app = Fastify({ trustProxy: trust });
  app.get('/', async (request) => ({ ip: request.ip }));
  try {
    const res = await app.inject({
      url: '/',
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return (res.json() as { ip: string }).ip;
  } finally {
    await app.close();
  }
}

describe('embeddedTrustProxy', () => {
  it('believes the gateway when TRUST_PROXY names only the load balancer in front of it', async () => {
    // the gateway trusted 10.0.0.5 and appended it: "browser, load balancer"
    const chain = '198.51.100.7, 10.0.0.5';
    expect(await ipSeen(embeddedTrustProxy('10.0.0.5'), '127.0.0.1', chain)).toBe('198.51.100.7');
    // what the platform's own trust made of it: every browser was the gateway
    expect(await ipSeen('10.0.0.5', '127.0.0.1', chain)).toBe('127.0.0.1');
  });

  it('does not believe what a client wrote before an untrusted hop', async () => {
    // the browser sent "X-Forwarded-For: 203.0.113.1" straight to the gateway, which appended the browser's address
    const forged = '203.0.113.1, 198.51.100.7';
    expect(await ipSeen(embeddedTrustProxy('10.0.0.5'), '127.0.0.1', forged)).toBe('198.51.100.7');
    expect(await ipSeen(embeddedTrustProxy('loopback'), '127.0.0.1', forged)).toBe('198.51.100.7');
    expect(await ipSeen(embeddedTrustProxy(false), '127.0.0.1', forged)).toBe('198.51.100.7');
    expect(await ipSeen(embeddedTrustProxy('2'), '127.0.0.1', forged)).toBe('198.51.100.7');
  });

  it('with TRUST_PROXY=true believes the whole chain', async () => {
    expect(await ipSeen(embeddedTrustProxy(true), '127.0.0.1', '203.0.113.1, 198.51.100.7')).toBe(
      '203.0.113.1',
    );
    expect(await ipSeen(embeddedTrustProxy('true'), '127.0.0.1', '203.0.113.1, 198.51.100.7')).toBe(
      '203.0.113.1',
    );
  });

  it('the default (loopback) believes the gateway on 127.0.0.1 and a browser on its own machine', async () => {
    expect(await ipSeen(embeddedTrustProxy('loopback'), '127.0.0.1', '198.51.100.7')).toBe('198.51.100.7');
    expect(await ipSeen(embeddedTrustProxy('loopback'), '127.0.0.1', '127.0.0.1')).toBe('127.0.0.1');
  });
});
