/**
 * Requests Fastify refuses before routing (an undecodable path, an over-long route parameter) get the gateway's
 * Chinese answers: the envelope under /api, a page elsewhere, both with the headers the hooks would have set.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { buildServer } from '../app.ts';
import { fakeServerBuild, startFakeUpstream, testConfig } from '../../tests/support/server.ts';

describe('gateway: framework errors', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await buildServer(testConfig({ announcement: null }), {
      upstreamUrl: upstream.url,
      build: fakeServerBuild(),
      logger: false,
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.app.close();
  });

  it.each(['/%E0', '/attestation/%E0%A4%A', '/English/attestation/%C0%AF.pdf'])(
    'a page path that is not UTF-8 (%s) gets a Chinese page, 400, with security headers and no-store',
    async (url) => {
      const res = await gateway.inject(url);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(Msg.badRequest);
      expect(res.body).toContain('<a href="/">返回首页</a>');
      expect(res.body).not.toContain('FST_ERR');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toMatch(/\S/);
    },
  );

  it("an /api path that is not UTF-8 gets the envelope (not the upstream's answer)", async () => {
    const res = await gateway.inject('/api/data/getList/%E0');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: Msg.badRequest, data: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('under a BASE_PATH the page links home below it', async () => {
    const based = await buildServer(testConfig({ announcement: null, basePath: '/cunzheng' }), {
      upstreamUrl: upstream.url,
      build: fakeServerBuild(),
      logger: false,
    });
    try {
      const res = await based.inject('/cunzheng/%E0');
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('<a href="/cunzheng/">返回首页</a>');
    } finally {
      await based.close();
    }
  });
});
