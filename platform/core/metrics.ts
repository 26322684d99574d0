/**
 * Prometheus metrics of the platform (decision 040 "Metrics"), with prom-client: served to the
 * gateway at `GET /api/internal/metrics` (internal key), which appends them to its own `/metrics` (server/observability/metrics.ts)
 * — the embedded platform runs in the gateway's process, so process metrics are the gateway's alone.
 *
 * - `cunzheng_payment_notifications_total{provider,verdict}`: Alipay / WeChat Pay notifications by what became of
 *   them (applied, duplicate, after-close, not-paid, bad-signature, …; contract NotifyVerdict);
 * - `cunzheng_jobs_queued{task}`, `cunzheng_jobs_active{task}`, `cunzheng_jobs_failed{task}`: the job queue
 *   (platform/jobs) as stored now;
 * - `cunzheng_worker_jobs{job,state}` (`job` `certificate.render` | `capture`, `state` `queued` | `active` |
 *   `failed`) and `cunzheng_worker_job_oldest_wait_seconds{job}` (0 when none waits): the background worker's jobs
 *   as stored now (jobs/work.ts; docs/decisions/064-background-worker.md), read from the database by every platform;
 * - `cunzheng_db_pool_connections{state}` (`total`, `idle`, `waiting`): the PostgreSQL pool (absent on SQLite).
 * No label holds a user, an order number or any personal data.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Registry } from 'prom-client';
import { internalOnly } from './internal-key.ts';
import type { WorkerJobView } from '../../contract/jobs.ts';
import type { TaskStats } from '../jobs/queue.ts';
import { workerJobViews } from '../jobs/work.ts';
import { nowSeconds } from './time.ts';
import { PLATFORM_METRICS_PATH } from '../../lib/metrics-path.ts';

/** The path the gateway reads (lib/metrics-path.ts). */
export { PLATFORM_METRICS_PATH };

declare module 'fastify' {
  interface FastifyInstance {
    /** The platform's Prometheus registry and its counters. */
    metrics: PlatformMetrics;
  }
}

/** The registry and the counters code increments. */
export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly notifications = new Counter({
    name: 'cunzheng_payment_notifications_total',
    help: 'Payment notifications received, by provider and verdict',
    labelNames: ['provider', 'verdict'] as const,
    registers: [this.registry],
  });

  constructor(app: FastifyInstance) {
    // One read of the queue per scrape: the registry collects the three gauges at once, and they share it.
    let reading: Promise<TaskStats[]> | null = null;
    const jobStats = () =>
      (reading ??= (app.jobs?.stats() ?? Promise.resolve([]))
        .catch(() => [])
        .finally(() => (reading = null)));
    const jobGauge = (name: string, help: string, field: 'queued' | 'active' | 'failed') =>
      new Gauge({
        name,
        help,
        labelNames: ['task'] as const,
        registers: [this.registry],
        async collect() {
          for (const s of await jobStats()) this.set({ task: s.name }, s[field]);
        },
      });
    jobGauge(
      'cunzheng_jobs_queued',
      'Runs of each recurring task waiting (due or later, retries included)',
      'queued',
    );
    jobGauge('cunzheng_jobs_active', 'Runs of each recurring task going now', 'active');
    jobGauge(
      'cunzheng_jobs_failed',
      'Runs of each recurring task that failed for good (kept a while)',
      'failed',
    );
    // the worker's jobs: one read of the database per scrape, shared by the two gauges as above
    let readingWork: Promise<WorkerJobView[]> | null = null;
    const workStats = () =>
      (readingWork ??= workerJobViews(app.pdb.db, nowSeconds())
        .catch(() => [])
        .finally(() => (readingWork = null)));
    new Gauge({
      name: 'cunzheng_worker_jobs',
      help: "Background worker's jobs (certificate renders, captures) by state: queued, active, failed in the last week",
      labelNames: ['job', 'state'] as const,
      registers: [this.registry],
      async collect() {
        for (const w of await workStats())
          for (const state of ['queued', 'active', 'failed'] as const)
            this.set({ job: w.name, state }, w[state]);
      },
    });
    new Gauge({
      name: 'cunzheng_worker_job_oldest_wait_seconds',
      help: 'Seconds the oldest waiting job of the background worker has waited (0 when none waits)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      async collect() {
        for (const w of await workStats()) this.set({ job: w.name }, w.oldestWaitSeconds ?? 0);
      },
    });
    new Gauge({
      name: 'cunzheng_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = app.pdb.poolStats?.();
        if (!pool) return;
        for (const [state, n] of Object.entries(pool)) this.set({ state }, n);
      },
    });
  }

  /** Counts one payment notification; `provider` a registered provider's name (platform/billing/providers.ts). */
  paymentNotification(provider: string, verdict: string): void {
    this.notifications.inc({ provider, verdict });
  }
}

/** Decorates `app.metrics` and serves the registry on {@link PLATFORM_METRICS_PATH}; register after services. */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const metrics = new PlatformMetrics(app);
  app.decorate('metrics', metrics);
  app.get(
    PLATFORM_METRICS_PATH,
    { preHandler: internalOnly(app), logLevel: 'warn' },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
});
