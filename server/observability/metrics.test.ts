/**
 * The gateway's Prometheus metrics (decision 040): answers counted and timed by route pattern (never the concrete
 * URL), upload bytes, the /api proxy's 502/504, the PDF pool and capture gauges from their sources, prom-client's
 * process metrics; `/metrics` served on its own port only; METRICS_PORT checked. And through the real process: the
 * metrics port answers while the public port does not expose them.
 */
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayMetrics, loadMetricsConfig } from './metrics.ts';
import { startWhole, type Whole } from '../../tests/support/integration.ts';

/** The value of the sample `name{labels}` in exposition `text`, or null. */
function sample(text: string, name: string, labels: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
}

describe('GatewayMetrics', () => {
  it('counts answers by route pattern, uploads, proxy failures and the sources gauges', async () => {
    const metrics = new GatewayMetrics({
      pdfStats: () => ({ active: 1, queued: 3, completed: 7, launches: 1, completedSeconds: 2.5 }),
    });
    const app = Fastify();
    metrics.instrument(app);
    app.get('/attestation/:baoquan', async () => 'ok');
    app.post('/api/*', async (_request, reply) => reply.code(502).send({ code: 502 }));
    app.addContentTypeParser('application/octet-stream', (_r, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null));
    });
    await app.inject({ url: '/attestation/BQ1' });
    await app.inject({ url: '/attestation/BQ2?code=secret' });
    await app.inject({ url: '/nowhere' });
    await app.inject({
      method: 'POST',
      url: '/api/data/save',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(1234),
    });
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'cunzheng_http_requests_total', 'method="GET",route="/attestation/:baoquan",status="200"'),
    ).toBe(2);
    expect(
      sample(text, 'cunzheng_http_requests_total', 'method="GET",route="(unmatched)",status="404"'),
    ).toBe(1);
    expect(text).not.toContain('BQ1');
    expect(text).not.toContain('secret');
    expect(
      sample(
        text,
        'cunzheng_http_request_duration_seconds_count',
        'method="GET",route="/attestation/:baoquan"',
      ),
    ).toBe(2);
    expect(sample(text, 'cunzheng_upload_bytes_total', 'route="/api/*"')).toBe(1234);
    expect(sample(text, 'cunzheng_proxy_errors_total', 'status="502"')).toBe(1);
    expect(text).toMatch(/^cunzheng_pdf_renders_queued 3$/m);
    expect(text).toMatch(/^cunzheng_pdf_render_seconds_total 2.5$/m);
    expect(text).toMatch(/^cunzheng_process_resident_memory_bytes \d+/m);
    await app.close();
  });

  it('serves /metrics only, on its own port', async () => {
    const metrics = new GatewayMetrics();
    const { server, port } = await metrics.serve('127.0.0.1', 0);
    const ok = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, metrics.registry.contentType]);
    expect(await ok.text()).toContain('# TYPE cunzheng_http_requests_total counter');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads METRICS_PORT and METRICS_HOST', () => {
    expect(loadMetricsConfig({})).toEqual({ port: null, host: '127.0.0.1' });
    expect(loadMetricsConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toEqual({
      port: 9464,
      host: '0.0.0.0',
    });
    expect(() => loadMetricsConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});

describe('metrics of the real process', () => {
  let whole: Whole;
  afterAll(async () => whole?.stop());

  it('are served on METRICS_PORT and not on the public port', async () => {
    whole = await startWhole({ METRICS_PORT: '0' });
    expect(whole.running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await fetch(`${whole.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${whole.base}/api/healthz`)).status).toBe(200);
    const text = await (await fetch(whole.running.metricsUrl!)).text();
    expect(sample(text, 'cunzheng_http_requests_total', 'method="GET",route="/healthz",status="200"')).toBe(
      1,
    );
    expect(
      sample(text, 'cunzheng_http_requests_total', 'method="GET",route="/api/*",status="200"'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^cunzheng_pdf_renders_active 0$/m);
    // the platform's families, read from it at the scrape: the job queue, payment notifications by verdict
    expect(text).toMatch(/^cunzheng_jobs_queued\{task="face\.poll"\} [01]$/m);
    expect(text).toMatch(/^cunzheng_jobs_failed\{task="billing\.reconcile"\} 0$/m);
    const forged = await fetch(`${whole.base}/api/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'out_trade_no=R1&trade_status=TRADE_SUCCESS&sign=forged',
    });
    expect(await forged.text()).toBe('fail');
    const after = await (await fetch(whole.running.metricsUrl!)).text();
    expect(
      sample(after, 'cunzheng_payment_notifications_total', 'provider="alipay",verdict="bad-signature"'),
    ).toBe(1);
    const pub = await fetch(`${whole.base}/metrics`);
    expect(await pub.text()).not.toContain('cunzheng_http_requests_total');
  });
});
