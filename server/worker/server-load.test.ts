/**
 * Background work yields to people (docs/decisions/064-background-worker.md, server/worker/server-load.ts): the gateway
 * says busy when its event loop is, quiet when it is not; the worker's render loop claims no job while the gateway
 * is busy, claims at once when it turns quiet, and after the longest deferral even if it never does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { PlatformCallRequest } from '../../contract/platform-call.ts';
import { RenderPaths } from '../../contract/renders.ts';
import type { CertificateRenderer } from '../pdf/renderer.ts';
import { startRenderWorker, type RenderWorker } from './renders.ts';
import { BUSY_MESSAGE, QUIET_MESSAGE, SAMPLE_MS, serverLoad, watchServerLoad } from './server-load.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the gateway watching its own event loop', () => {
  it('says busy while its loop is blocked and quiet once it idles, each change once', async () => {
    const heard: string[] = [];
    const watch = watchServerLoad((m) => heard.push(m));
    try {
      await sleep(SAMPLE_MS * 2);
      expect(heard).toEqual([]); // idle from the start: nothing to say
      const until = Date.now() + SAMPLE_MS * 3;
      while (Date.now() < until); // a page being rendered, on the loop, for three samples
      await sleep(SAMPLE_MS * 1.5);
      expect(heard[0]).toBe(BUSY_MESSAGE);
      await sleep(SAMPLE_MS * 3);
      expect(heard).toEqual([BUSY_MESSAGE, QUIET_MESSAGE]);
    } finally {
      watch.stop();
    }
  });
});

describe('the worker waiting for a quiet gateway', () => {
  it('does not wait when quiet, waits while busy, and ends its wait on quiet, after the longest wait or on abort', async () => {
    const load = serverLoad();
    expect(await load.untilQuiet(1000)).toBe(false);
    load.hear(BUSY_MESSAGE);
    load.hear('events'); // another message changes nothing
    expect(load.busy).toBe(true);
    const waiting = load.untilQuiet(5000);
    await sleep(50);
    load.hear(QUIET_MESSAGE);
    expect(await waiting).toBe(true);
    load.hear(BUSY_MESSAGE);
    const started = Date.now();
    expect(await load.untilQuiet(200)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const abort = new AbortController();
    const aborted = load.untilQuiet(5000, abort.signal);
    abort.abort();
    expect(await aborted).toBe(false);
  });
});

describe('renders ahead and a busy gateway', () => {
  let worker: RenderWorker | null = null;
  afterEach(async () => {
    await worker?.stop();
    worker = null;
  });

  it('claims no render job while the gateway is busy and claims at once when it turns quiet', async () => {
    const claims: number[] = [];
    const target = {
      upstreamUrl: 'http://127.0.0.1:9',
      platformCall: async (request: PlatformCallRequest) => {
        if (request.url === RenderPaths.claim) claims.push(Date.now());
        return { status: 200, contentType: 'application/json', body: '{"code":200,"msg":"ok","data":null}' };
      },
    };
    const load = serverLoad();
    load.hear(BUSY_MESSAGE);
    worker = startRenderWorker({
      target,
      internalKey: 'k'.repeat(40),
      worker: 'test-worker',
      renderer: {} as CertificateRenderer, // no job is ever handed out here
      leaseSeconds: 70,
      log: pino({ level: 'silent' }),
      pollMs: 20,
      serverLoad: load,
    });
    await sleep(300);
    expect(claims).toEqual([]);
    const quietAt = Date.now();
    load.hear(QUIET_MESSAGE);
    await sleep(200);
    expect(claims.length).toBeGreaterThan(1); // polling again every 20 ms
    expect(claims[0]! - quietAt).toBeLessThan(100);
    load.hear(BUSY_MESSAGE);
    await sleep(50);
    const whileBusy = claims.length;
    await sleep(300);
    expect(claims.length).toBe(whileBusy);
  });
});
