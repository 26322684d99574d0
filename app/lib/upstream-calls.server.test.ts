/**
 * Upstream calls of the pages, against a fake upstream: the user's info is asked once per GET request, shared by the
 * root loader (top bar) and a route's loader (settings, the KYC gate), and afresh on a POST, whose action may have
 * changed it (app/lib/auth.server.ts); with the embedded platform's call (`ctx.platformCall`) the same request goes
 * without HTTP, with the same deadline, cancellation and failures. (Saved evidence reaches the certificate PDF
 * renderer as a platform event, not through the pages' calls: docs/decisions/059-evidence-events.md.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RouterContextProvider, type AppLoadContext } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPaths } from '../../contract/account.ts';
import type { PlatformCall, PlatformCallRequest } from '../../contract/platform-call.ts';
import { apiCall } from './api.server.ts';
import { optionalUser, requireUserInfo } from './auth.server.ts';
import { sessionStorageFor } from './session.server.ts';

let upstream: http.Server;
let calls = 0;
let ctx: AppLoadContext;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === AccountPaths.authInfo) calls++;
    if (req.url?.startsWith('/drip')) {
      // Answers at once, then sends its body a byte a second: within any idle timeout, past any deadline.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url?.startsWith('/echo')) {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () =>
        res.setHeader('content-type', 'application/json').end(
          JSON.stringify({
            code: 200,
            msg: '',
            data: { method: req.method, url: req.url, body, headers: req.headers },
          }),
        ),
      );
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 200, msg: '操作成功', data: { mobile: '13800138000', userStatus: 3 } }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const fields = {
    cspNonce: '',
    clientIp: '127.0.0.1',
    upstreamUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    sessionSecrets: ['user-info-test-secret-user-info-test-secret'],
    secureCookies: false,
    maxUploadBytes: 1024,
    formBodyLimitBytes: 1024,
    upstreamTimeoutMs: 5000,
    announcement: null,
  };
  ctx = Object.assign(new RouterContextProvider(), fields) as unknown as AppLoadContext;
});
afterAll(() => new Promise((r) => upstream.close(r)));

/** A request carrying a session with an upstream token, on a fresh per-request context like the gateway's. */
async function signedIn(method: 'GET' | 'POST') {
  const storage = sessionStorageFor(ctx);
  const session = await storage.getSession(null);
  session.set('token', 'upstream-token');
  const cookie = (await storage.commitSession(session)).split(';')[0]!;
  const perRequest = Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx) as AppLoadContext;
  return {
    request: new Request('http://localhost/setting', { method, headers: { cookie } }),
    context: perRequest,
  };
}

describe('user info per request', () => {
  it('asks once for the root loader and the route loader of a GET', async () => {
    const { request, context } = await signedIn('GET');
    calls = 0;
    const [root, route] = await Promise.all([
      optionalUser(request, context),
      requireUserInfo(request, context),
    ]);
    expect(root.user?.mobile).toBe('13800138000');
    expect(route.data.mobile).toBe('13800138000');
    expect(calls).toBe(1);
    // another request asks again
    const next = await signedIn('GET');
    await optionalUser(next.request, next.context);
    expect(calls).toBe(2);
  });

  it('asks afresh on each call of a POST (its action may have changed the answer)', async () => {
    const { request, context } = await signedIn('POST');
    calls = 0;
    await optionalUser(request, context);
    await requireUserInfo(request, context);
    expect(calls).toBe(2);
  });
});

describe('apiCall', () => {
  it('sends the query, the form body, the token, the client address and the page path', async () => {
    const res = await apiCall<{ method: string; url: string; body: string; headers: Record<string, string> }>(
      ctx,
      '/echo',
      {
        query: { a: '1', b: undefined, c: '' },
        body: { x: '证据', y: undefined },
        token: 'tok',
        urlPath: '/页面',
      },
    );
    expect(res.data.method).toBe('POST');
    expect(res.data.url).toBe('/echo?a=1');
    expect(new URLSearchParams(res.data.body).get('x')).toBe('证据');
    expect(res.data.body).not.toContain('y=');
    expect(res.data.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(res.data.headers.authorization).toBe('Bearer tok');
    expect(res.data.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(decodeURI(res.data.headers['x-url-path']!)).toBe('/页面');
  });

  it('ends a call whose answer takes longer than UPSTREAM_TIMEOUT_MS with the 504 connection-failed answer', async () => {
    const slow = Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx, {
      upstreamTimeoutMs: 1500,
    }) as AppLoadContext;
    const started = Date.now();
    await expect(apiCall(slow, '/drip')).rejects.toMatchObject({ init: { status: 504 } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("passes the browser's cancellation on as an abort, not as a connection failure", async () => {
    const cancel = new AbortController();
    const call = apiCall(ctx, '/drip', { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 100);
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('AbortError');
    await expect(apiCall(ctx, '/echo', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('answers 502 when nothing listens at the upstream address', async () => {
    const closed = Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx, {
      upstreamUrl: 'http://127.0.0.1:1',
    }) as AppLoadContext;
    await expect(apiCall(closed, '/x')).rejects.toMatchObject({ init: { status: 502 } });
  });
});

describe('apiCall to the embedded platform without HTTP (ctx.platformCall)', () => {
  /** `ctx` with `platformCall` and, optionally, another deadline. */
  const through = (platformCall: PlatformCall, upstreamTimeoutMs = 5000) =>
    Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx, {
      platformCall,
      upstreamTimeoutMs,
    }) as AppLoadContext;

  it('hands the platform what the HTTP call would carry and reads its envelope', async () => {
    const seen: PlatformCallRequest[] = [];
    const context = through(async (request) => {
      seen.push(request);
      return {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ code: 200, msg: '操作成功', data: { mobile: '13800138000' } }),
      };
    });
    const res = await apiCall<{ mobile: string }>(context, '/api/x', {
      query: { a: '1', b: undefined },
      body: { x: '证据' },
      token: 'tok',
      urlPath: '/页面',
    });
    expect(res).toEqual({ code: 200, msg: '操作成功', data: { mobile: '13800138000' } });
    expect(seen).toHaveLength(1);
    const [request] = seen as [PlatformCallRequest];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/x?a=1');
    expect(new URLSearchParams(request.body).get('x')).toBe('证据');
    expect(request.headers).toMatchObject({
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: 'Bearer tok',
      'X-Forwarded-For': '127.0.0.1',
    });
    expect(decodeURI(request.headers['X-URL-PATH']!)).toBe('/页面');
    // a GET without a body carries none
    await apiCall(context, '/api/y');
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/api/y' });
    expect(seen[1]!.body).toBeUndefined();
  });

  it('answers an answer that is not an envelope, and a platform that cannot take the call, with 502', async () => {
    const html = through(async () => ({ status: 500, contentType: 'text/html', body: '<p>x</p>' }));
    await expect(apiCall(html, '/api/x')).rejects.toMatchObject({ init: { status: 502 } });
    const gone = through(() =>
      Promise.reject(Object.assign(new Error('not running'), { code: 'ECONNREFUSED' })),
    );
    await expect(apiCall(gone, '/api/x')).rejects.toMatchObject({ init: { status: 502 } });
  });

  it('ends a call past UPSTREAM_TIMEOUT_MS with 504 and passes a cancellation on as an abort', async () => {
    const silent = () => new Promise<never>(() => undefined);
    await expect(apiCall(through(silent, 100), '/api/x')).rejects.toMatchObject({ init: { status: 504 } });
    const cancel = new AbortController();
    const pending = apiCall(through(silent), '/api/x', { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(apiCall(through(silent), '/api/x', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
