/**
 * What the app's route tests share (loaders and actions called directly, as React Router calls them): an upstream
 * on loopback that records every call and answers from a function, the load context the gateway gives a request,
 * and a signed-in request (session token, CSRF cookie, and for a POST the form with its matching CSRF token).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RouterContextProvider, type AppLoadContext } from 'react-router';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { commitCsrfToken } from '../../app/lib/csrf.server.ts';
import { sessionStorageFor } from '../../app/lib/session.server.ts';
import { TEST_SITE } from './site.ts';

/** One call the recording upstream received. */
export interface RecordedCall {
  method: string;
  /** The path without the query, e.g. `/api/data/getList`. */
  path: string;
  query: URLSearchParams;
  /** The form-encoded body as a plain object (a repeated name keeps its last value). */
  body: Record<string, string>;
}

/** A started recording upstream; empty `calls` (`calls.length = 0`) between tests. */
export interface RecordingUpstream {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP upstream on 127.0.0.1 that records each call and answers `answer(call)` as JSON (an envelope,
 * `{code: 200, msg: '操作成功', data: null}` when `answer` returns undefined), pushing the calls onto `calls`.
 */
export async function startRecordingUpstream(
  answer: (call: RecordedCall) => ApiEnvelope | undefined = () => undefined,
  calls: RecordedCall[] = [],
): Promise<RecordingUpstream> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      const call: RecordedCall = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: Object.fromEntries(new URLSearchParams(raw)),
      };
      calls.push(call);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer(call) ?? { code: 200, msg: '操作成功', data: null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The load context of the gateway for `upstreamUrl` (the embedded platform's call left out: calls go over HTTP). */
export function routeContext(upstreamUrl: string, overrides: Record<string, unknown> = {}): AppLoadContext {
  const fields = {
    cspNonce: '',
    clientIp: '127.0.0.1',
    upstreamUrl,
    sessionSecrets: ['route-test-secret-route-test-secret-route'],
    secureCookies: false,
    maxUploadBytes: 1024,
    formBodyLimitBytes: 8192,
    upstreamTimeoutMs: 5000,
    announcement: null,
    site: TEST_SITE,
    ...overrides,
  };
  return Object.assign(new RouterContextProvider(), fields) as unknown as AppLoadContext;
}

/** A fresh per-request copy of `ctx`, as the gateway makes one for each request (the user's info is cached on it). */
export function perRequest(ctx: AppLoadContext): AppLoadContext {
  return Object.assign(Object.create(Object.getPrototypeOf(ctx) as object), ctx) as AppLoadContext;
}

/**
 * A request to `path` (`/x?y=1`) of a user signed in with the upstream token `upstream-token`, with a CSRF cookie;
 * with `form` a form-encoded POST carrying it and the matching `csrf` token first.
 */
export async function signedInRequest(
  ctx: AppLoadContext,
  path: string,
  form?: Record<string, string> | [string, string][],
): Promise<Request> {
  const storage = sessionStorageFor(ctx);
  const session = await storage.getSession(null);
  session.set('token', 'upstream-token');
  const sessionCookie = (await storage.commitSession(session)).split(';')[0]!;
  const [csrf, setCookie] = await commitCsrfToken(new Request('http://localhost/'), ctx);
  const cookie = `${sessionCookie}; ${setCookie!.split(';')[0]!}`;
  if (!form) return new Request(`http://localhost${path}`, { headers: { cookie } });
  const pairs = Array.isArray(form) ? form : Object.entries(form);
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([['csrf', csrf], ...pairs]).toString(),
  });
}

/** A suite's recording upstream and the load context that calls it (see {@link recordingUpstreamForSuite}). */
export interface RecordingSuite {
  /** The calls of the running test (emptied before each). */
  readonly calls: RecordedCall[];
  /** The gateway's load context for the upstream (set in `beforeAll`). */
  readonly ctx: AppLoadContext;
}

/**
 * Registers, for the calling suite, a recording upstream answering `answer` (started before all tests, closed after,
 * its calls emptied before each) and returns the calls and the load context that reaches it.
 */
export function recordingUpstreamForSuite(
  answer?: (call: RecordedCall) => ApiEnvelope | undefined,
): RecordingSuite {
  let upstream: RecordingUpstream | undefined;
  let ctx: AppLoadContext | undefined;
  const calls: RecordedCall[] = [];
  beforeAll(async () => {
    upstream = await startRecordingUpstream(answer, calls);
    ctx = routeContext(upstream.url);
  });
  afterAll(() => upstream?.close());
  beforeEach(() => {
    calls.length = 0;
  });
  return {
    calls,
    get ctx() {
      if (!ctx) throw new Error('the recording upstream starts in beforeAll');
      return ctx;
    },
  };
}
