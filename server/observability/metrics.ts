/**
 * Prometheus metrics of the gateway (decision 040) with prom-client, served at `/metrics` on an internal port of
 * their own (METRICS_PORT, bound to METRICS_HOST, default 127.0.0.1) — never on the public port. Off unless
 * METRICS_PORT is set.
 *
 * What is measured (names prefixed `cunzheng_`):
 * - `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route}`: every answer, by
 *   the route's pattern (`/attestation/:baoquan`, never the concrete URL, so the label set stays bounded; unmatched
 *   paths are `(unmatched)`);
 * - `upload_bytes_total{route}`: declared request bytes of uploads (multipart and raw bodies);
 * - `proxy_errors_total{status}`: the `/api` proxy's 502/504 answers (upstream unreachable or silent);
 * - `pdf_renders_active`, `pdf_renders_queued`, `pdf_renders_completed`, `pdf_browser_launches`: the certificate
 *   PDF pool;
 * - `pdf_render_seconds_total`: the completed renders' time in all;
 * - the platform's own (payment notifications by verdict, the job queue, the database pool), read from it at each
 *   scrape (platform/core/metrics.ts);
 * - prom-client's default process metrics (CPU seconds, resident memory, heap, event-loop lag, open handles).
 * No label holds a URL's query, a user, a token or any personal data.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PLATFORM_METRICS_PATH } from '../../lib/metrics-path.ts';

export { loadMetricsConfig, type MetricsConfig } from '../config/metrics.ts';

/** What the gateway's metrics read besides its requests. */
export interface MetricsSources {
  pdfStats?: () =>
    | { active: number; queued: number; completed: number; launches: number; completedSeconds: number }
    | undefined;
  /** The platform's metrics text (platform/core/metrics.ts), appended to the gateway's; '' when unavailable. */
  platformText?: () => Promise<string>;
}

/** The gateway's registry and its request instruments. */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'cunzheng_http_requests_total',
    help: 'Answers of the gateway by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'cunzheng_http_request_duration_seconds',
    help: 'Time from request to answer by method and route pattern (seconds)',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly uploadBytes = new Counter({
    name: 'cunzheng_upload_bytes_total',
    help: 'Declared request bytes of uploads (multipart and raw bodies) by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly proxyErrors = new Counter({
    name: 'cunzheng_proxy_errors_total',
    help: 'Answers 502/504 of the /api proxy (upstream unreachable or silent)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly sources: MetricsSources;

  constructor(sources: MetricsSources = {}) {
    this.sources = sources;
    collectDefaultMetrics({ register: this.registry, prefix: 'cunzheng_' });
    const gauge = (name: string, help: string, read: () => number | undefined) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read() ?? 0);
        },
      });
    gauge(
      'cunzheng_pdf_renders_active',
      'Certificate PDFs rendering now',
      () => sources.pdfStats?.()?.active,
    );
    gauge(
      'cunzheng_pdf_renders_queued',
      'Certificate PDFs waiting for a page',
      () => sources.pdfStats?.()?.queued,
    );
    gauge(
      'cunzheng_pdf_renders_completed',
      'Certificate PDFs rendered since start',
      () => sources.pdfStats?.()?.completed,
    );
    gauge(
      'cunzheng_pdf_render_seconds_total',
      'Seconds the completed certificate PDF renders took in all (the mean is its rate over the completed rate)',
      () => sources.pdfStats?.()?.completedSeconds,
    );
    gauge(
      'cunzheng_pdf_browser_launches',
      'Chromium launches of the PDF pool since start',
      () => sources.pdfStats?.()?.launches,
    );
  }

  /** Counts and times every answer of `app` (an onResponse hook on the root scope). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? '(unmatched)';
      const status = String(reply.statusCode);
      this.requests.inc({ method: request.method, route, status });
      this.duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      const type = request.headers['content-type'] ?? '';
      const length = Number(request.headers['content-length']);
      if (length > 0 && /^(multipart\/form-data|application\/octet-stream)/i.test(type)) {
        this.uploadBytes.inc({ route }, length);
      }
      if ((reply.statusCode === 502 || reply.statusCode === 504) && route.startsWith('/api')) {
        this.proxyErrors.inc({ status });
      }
    });
  }

  /**
   * Serves `/metrics` (text exposition format) on `host:port`; anything else answers 404.
   * @returns the listening server (close it on shutdown) and its port
   */
  async serve(host: string, port: number): Promise<{ server: http.Server; port: number }> {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      Promise.all([this.registry.metrics(), this.sources.platformText?.().catch(() => '') ?? ''])
        .then(([own, platform]) =>
          res.writeHead(200, { 'content-type': this.registry.contentType }).end(own + platform),
        )
        .catch(() => res.writeHead(500).end());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return { server, port: (server.address() as AddressInfo).port };
  }
}

/**
 * The platform's metrics text from `${upstreamUrl}/api/internal/metrics` (the internal key in `x-internal-key`).
 * @returns the text, or '' when the platform does not answer 200
 * @throws on a network error or after 5 s (the caller scrapes without it then)
 */
export async function platformMetricsText(upstreamUrl: string, internalKey: string): Promise<string> {
  const res = await fetch(new URL(PLATFORM_METRICS_PATH, upstreamUrl), {
    headers: { 'x-internal-key': internalKey },
    signal: AbortSignal.timeout(5000),
  });
  if (res.ok) return res.text();
  await res.body?.cancel();
  return '';
}
