/**
 * app/lib/platform-call.server.ts: the same call over HTTP and over the embedded platform's call gives the same
 * status and text, and a platform that stays silent past the timeout fails either way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformCallRequest } from '../../contract/platform-call.ts';
import { callPlatform, type PlatformTarget } from './platform-call.server.ts';

/** The call with a deadline of `ms` milliseconds. */
const platformText = (target: PlatformTarget, call: PlatformCallRequest, ms: number) =>
  callPlatform(target, call, AbortSignal.timeout(ms));

let server: http.Server;
let upstreamUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/silent') return; // never answers
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end(JSON.stringify({ method: req.method, url: req.url, key: req.headers['x-internal-key'], body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const post: PlatformCallRequest = {
  method: 'POST',
  url: '/api/x?y=1',
  headers: { 'content-type': 'application/json', 'x-internal-key': 'k' },
  body: '{"digest":"ab"}',
};

describe('callPlatform', () => {
  it('answers over HTTP and over the call alike', async () => {
    const overHttp = await platformText({ upstreamUrl }, post, 5000);
    expect(overHttp.status).toBe(200);
    expect(JSON.parse(overHttp.body)).toEqual({
      method: 'POST',
      url: '/api/x?y=1',
      key: 'k',
      body: '{"digest":"ab"}',
    });
    const seen: PlatformCallRequest[] = [];
    const viaCall = await platformText(
      {
        upstreamUrl: 'http://127.0.0.1:1', // never used when the call is there
        platformCall: async (request) => {
          seen.push(request);
          return overHttp;
        },
      },
      post,
      5000,
    );
    expect(viaCall).toEqual(overHttp);
    expect(seen).toEqual([post]);
    expect((await platformText({ upstreamUrl }, { ...post, url: '/missing' }, 5000)).status).toBe(404);
  });

  it('fails when the platform is silent past the timeout or cannot be reached', async () => {
    await expect(platformText({ upstreamUrl }, { ...post, url: '/silent' }, 200)).rejects.toThrow();
    const silent = { upstreamUrl, platformCall: () => new Promise<never>(() => undefined) };
    await expect(platformText(silent, post, 200)).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(platformText({ upstreamUrl: 'http://127.0.0.1:1' }, post, 1000)).rejects.toThrow();
  });
});
