/**
 * The gateway's front-line rate limit (server/http/rate-limit.ts): which requests count, the 429 answers, off with 0, one
 * budget for two gateways sharing Redis (127.0.0.1:6379, a unique key prefix per test), and failing open when Redis
 * is down or goes away. Gateways are built with `buildServer` (no UI) in front of a loopback upstream that answers
 * every `/api` call.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPaths } from '../../contract/account.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { NotaryPaths } from '../../contract/notary.ts';
import { OpsPaths } from '../../contract/ops.ts';
import { VerifyPaths } from '../../contract/verify.ts';
import { buildServer } from '../app.ts';
import {
  DEFAULT_RATE_LIMIT_NAMESPACE,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  limitedGroup,
  loadRateLimitSettings,
  registerRateLimits,
} from './rate-limit.ts';
import { testConfig } from '../../tests/support/server.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A loopback upstream answering every `/api` call with a success envelope. */
async function startUpstream(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null));
  });
  app.all('/api/*', async (request) => ({ code: 200, msg: 'ok', data: request.url }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}` };
}

/** Log lines of a gateway, as parsed JSON. */
function logSink() {
  const lines: { level: number; msg: string; uncounted?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

/** A port nothing listens on (listened on, noted, closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP proxy to Redis that a test can cut (to lose Redis after the gateway connected). */
async function redisProxy(): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(6379, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describe('gateway rate limit', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const open: FastifyInstance[] = [];

  /** A gateway built by `buildServer` with these rate-limit variables as its environment. */
  async function gateway(
    env: { RATE_LIMIT_PER_MINUTE: string; REDIS_URL?: string; RATE_LIMIT_NAMESPACE?: string },
    logger?: ReturnType<typeof logSink>['logger'],
  ): Promise<FastifyInstance> {
    const app = await buildServer(testConfig(), {
      upstreamUrl: upstream.url,
      build: false,
      rateLimit: loadRateLimitSettings(env),
      ...(logger ? { loggerInstance: logger } : { logger: false }),
    });
    open.push(app);
    return app;
  }

  const post = (app: FastifyInstance, url: string, remoteAddress = '198.51.100.7') =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'mobile=13800138000&password=x',
    });

  beforeAll(async () => {
    upstream = await startUpstream();
  });

  afterAll(async () => {
    await Promise.all(open.map((app) => app.close()));
    await upstream.app.close();
  });

  describe('which requests count', () => {
    it('counts the anonymous logins, captcha/SMS steps and public lookups of the contract', () => {
      const expected: [string, string, ReturnType<typeof limitedGroup>][] = [
        ['POST', AccountPaths.login, 'login'],
        ['POST', OpsPaths.login, 'login'],
        ['POST', AccountPaths.imgCode, 'sms'],
        ['POST', AccountPaths.sendSms, 'sms'],
        ['POST', AccountPaths.sendResetSms, 'sms'],
        ['POST', AccountPaths.register, 'sms'],
        ['POST', AccountPaths.resetPassword, 'sms'],
        ...Object.values(VerifyPaths).map((p): [string, string, 'lookup'] => ['POST', p, 'lookup']),
        ['POST', EvidencePaths.codeDownload, 'lookup'],
        ['GET', `${NotaryPaths.notarialCheck}?number=N1`, 'lookup'],
        // pages: the form posts, their JavaScript (.data) twins, the steps that make a captcha or send an SMS
        ['POST', '/login', 'login'],
        ['POST', '/login.data?redirect=%2F', 'login'],
        ['POST', '/ops/login', 'login'],
        ['GET', '/register', 'sms'],
        ['POST', '/forgetpwd.data', 'sms'],
        ['GET', '/queryAuthentication/safekeeping?no=BQ1', 'lookup'],
        ['POST', '/queryAuthentication/certificate', 'lookup'],
        ['GET', '/queryAuthentication/notarial.data?number=N1', 'lookup'],
        ['GET', '/English/safekeeping?no=BQ1', 'lookup'],
        ['POST', '/verify', 'lookup'],
        // the same routes spelled otherwise reach the same handlers: counted alike
        ['POST', '/API/Login', 'login'],
        ['POST', '/api/%6Cogin', 'login'],
        ['POST', '//api//login/', 'login'],
        ['POST', '/api/login;x=1', 'login'],
      ];
      for (const [method, url, group] of expected)
        expect(limitedGroup(method, url), `${method} ${url}`).toBe(group);
    });

    it('leaves everything else alone', () => {
      for (const [method, url] of [
        ['GET', '/'],
        ['GET', '/healthz'],
        ['GET', '/readyz'],
        ['GET', '/assets/entry-abc123.js'],
        ['GET', '/favicon.ico'],
        ['GET', '/login'],
        ['GET', '/login.data'],
        ['GET', '/ops/login'],
        ['GET', '/verify'],
        ['GET', '/attestation/BQ20260101abc'],
        ['GET', '/chain/tx/ab12'],
        ['POST', '/newAccessCard'],
        ['POST', '/api/data/save'],
        ['GET', '/api/data/getList'],
        ['POST', '/api/loginx'],
        ['POST', '/api/user/logout'],
        ['GET', '/queryAuthenticationx'],
        ['GET', '/api/checkx'],
      ]) {
        expect(limitedGroup(method!, url!), `${method} ${url}`).toBeNull();
      }
    });
  });

  describe('settings', () => {
    it('defaults to 60 a minute in memory, 0 turns it off', () => {
      expect(loadRateLimitSettings({})).toEqual({
        perMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
        redisUrl: null,
        nameSpace: DEFAULT_RATE_LIMIT_NAMESPACE,
      });
      expect(DEFAULT_RATE_LIMIT_PER_MINUTE).toBe(60);
      expect(loadRateLimitSettings({ RATE_LIMIT_PER_MINUTE: '0', REDIS_URL: '' }).perMinute).toBe(0);
    });

    it('refuses bad values without repeating them (REDIS_URL may hold a password)', () => {
      expect(() => loadRateLimitSettings({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
      expect(() => loadRateLimitSettings({ RATE_LIMIT_PER_MINUTE: '1.5' })).toThrow(/whole number/);
      expect(() => loadRateLimitSettings({ RATE_LIMIT_NAMESPACE: 'a b' })).toThrow(/RATE_LIMIT_NAMESPACE/);
      let message = '';
      try {
        loadRateLimitSettings({ REDIS_URL: 'http://user:s3cret@redis.example' });
      } catch (err) {
        message = (err as Error).message;
        expect((err as Error).name).toBe('ConfigError');
      }
      expect(message).toMatch(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(message).not.toContain('s3cret');
    });

    it('reads REDIS_URL_FILE like the other secrets', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'cz-redis-url-'));
      try {
        const file = path.join(dir, 'redis_url');
        writeFileSync(file, 'rediss://:pw@redis.internal:6380/2\n');
        expect(loadRateLimitSettings({ REDIS_URL_FILE: file }).redisUrl).toBe(
          'rediss://:pw@redis.internal:6380/2',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('in memory', () => {
    it('answers 429 with the envelope under /api once the budget is spent, per client and per group', async () => {
      const app = await gateway({ RATE_LIMIT_PER_MINUTE: '3' });
      for (let n = 0; n < 3; n++) {
        const res = await post(app, AccountPaths.login);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ code: 200 });
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - n));
      }
      // another spelling of the same call shares the budget
      const refused = await post(app, '/api/Login');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(refused.json()).toEqual({
        code: ApiCode.TOO_MANY_REQUESTS,
        msg: Msg.tooManyRequests,
        data: null,
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['cache-control']).toBe('no-store');

      // another client, and another group of the same client, have their own budgets
      expect((await post(app, AccountPaths.login, '203.0.113.9')).statusCode).toBe(200);
      expect((await post(app, VerifyPaths.bqno)).statusCode).toBe(200);
      // unlimited routes are untouched and carry no rate-limit headers
      for (let n = 0; n < 5; n++) {
        const list = await app.inject({
          method: 'GET',
          url: EvidencePaths.list,
          remoteAddress: '198.51.100.7',
        });
        expect(list.statusCode).toBe(200);
        expect(list.headers['x-ratelimit-limit']).toBeUndefined();
        const health = await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.7' });
        expect(health.statusCode).toBe(200);
        expect(health.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('answers a page with a short Chinese page; a GET of the login page is free', async () => {
      const app = await gateway({ RATE_LIMIT_PER_MINUTE: '2' });
      // no UI in this gateway: the page posts reach Fastify's 404 until the limit answers first
      expect((await post(app, '/login')).statusCode).toBe(404);
      expect((await post(app, '/login.data')).statusCode).toBe(404);
      const refused = await post(app, '/login');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.body).toContain(Msg.tooManyRequests);
      expect(refused.body).toContain('<html lang="zh-CN">');
      for (let n = 0; n < 5; n++) {
        const page = await app.inject({ method: 'GET', url: '/login', remoteAddress: '198.51.100.7' });
        expect(page.statusCode).toBe(404);
      }
    });

    it('counts nothing with RATE_LIMIT_PER_MINUTE=0', async () => {
      const app = await gateway({ RATE_LIMIT_PER_MINUTE: '0' });
      for (let n = 0; n < 10; n++) {
        const res = await post(app, AccountPaths.login);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });
  });

  describe('through Redis', () => {
    it('counts one budget for two gateways sharing REDIS_URL', async () => {
      const nameSpace = `cz-test-${randomUUID()}:`;
      const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL, RATE_LIMIT_NAMESPACE: nameSpace };
      const [first, second] = [await gateway(env), await gateway(env)];
      for (let n = 0; n < 4; n++) expect((await post(first!, AccountPaths.login)).statusCode).toBe(200);
      const refused = await post(second!, AccountPaths.login);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: ApiCode.TOO_MANY_REQUESTS, msg: Msg.tooManyRequests });
      // the first gateway refuses too, and another client still passes through both
      expect((await post(first!, AccountPaths.login)).statusCode).toBe(429);
      expect((await post(second!, AccountPaths.login, '203.0.113.9')).statusCode).toBe(200);

      // the counter is in Redis, under the namespace, and expires with the minute
      const redis = new Redis(REDIS_URL);
      try {
        const key = `${nameSpace}login:198.51.100.7`;
        expect(Number(await redis.get(key))).toBe(6);
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      } finally {
        redis.disconnect();
      }
    });

    it('fails open when Redis cannot be reached, with a warning', async () => {
      const sink = logSink();
      const started = Date.now();
      const app = await gateway(
        { RATE_LIMIT_PER_MINUTE: '1', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
        sink.logger,
      );
      for (let n = 0; n < 4; n++) {
        const res = await post(app, AccountPaths.login);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // neither the start nor the requests wait for a Redis that refuses connections
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(sink.lines.some((l) => l.level === 40 && /fail open/.test(l.msg))).toBe(true);
      // one warning for the four uncounted requests (at most one a minute)
      expect(sink.lines.filter((l) => /request passes uncounted/.test(l.msg))).toHaveLength(1);
    });

    it('fails open when Redis goes away after the gateway connected', async () => {
      const proxy = await redisProxy();
      const sink = logSink();
      const app = await gateway(
        {
          RATE_LIMIT_PER_MINUTE: '1',
          REDIS_URL: proxy.url,
          RATE_LIMIT_NAMESPACE: `cz-test-${randomUUID()}:`,
        },
        sink.logger,
      );
      expect((await post(app, AccountPaths.login)).statusCode).toBe(200);
      expect((await post(app, AccountPaths.login)).statusCode).toBe(429);
      await proxy.cut();
      await new Promise((r) => setTimeout(r, 100));
      for (let n = 0; n < 3; n++) expect((await post(app, AccountPaths.login)).statusCode).toBe(200);
      expect(sink.lines.some((l) => l.level === 40 && /uncounted/.test(l.msg))).toBe(true);
    });
  });

  it('registers on a bare Fastify instance with an environment of its own', async () => {
    const app = Fastify({ logger: false });
    await registerRateLimits(
      app,
      loadRateLimitSettings({
        RATE_LIMIT_PER_MINUTE: '1',
        REDIS_URL,
        RATE_LIMIT_NAMESPACE: `cz-test-${randomUUID()}:`,
      }),
    );
    app.get('/api/check/bqno', async () => ({ code: 200 }));
    const lookup = () => app.inject({ method: 'GET', url: '/api/check/bqno', remoteAddress: '198.51.100.7' });
    expect((await lookup()).statusCode).toBe(200);
    expect((await lookup()).statusCode).toBe(429);
    await app.close();
  });
});
