/**
 * The platform's metrics endpoint (decision 040): only with the internal key; on PostgreSQL it shows the pool; the
 * background worker's jobs are counted (docs/decisions/064-background-worker.md).
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testConfig } from '../../tests/support/platform.ts';
import { buildPlatform } from '../app.ts';
import { PLATFORM_METRICS_PATH } from './metrics.ts';

describe('GET /api/internal/metrics', () => {
  it('needs the internal key; on PostgreSQL it shows the pool', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-metrics-'));
    const pg = await createTestDatabase();
    const app = await buildPlatform(testConfig(dir, pg.url, { PLATFORM_JOBS: '1' }), { logger: false });
    try {
      expect((await app.inject({ url: PLATFORM_METRICS_PATH })).statusCode).toBe(403);
      const res = await app.inject({
        url: PLATFORM_METRICS_PATH,
        headers: { 'x-internal-key': app.internalKey },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/^cunzheng_db_pool_connections\{state="total"\} [1-9]\d*$/m);
      expect(res.body).toMatch(/^cunzheng_db_pool_connections\{state="waiting"\} \d+$/m);
      expect(res.body).toContain('# TYPE cunzheng_payment_notifications_total counter');
      // the background worker's jobs (docs/decisions/064-background-worker.md), read from the database
      expect(res.body).toMatch(/^cunzheng_worker_jobs\{job="certificate\.render",state="queued"\} 0$/m);
      expect(res.body).toMatch(/^cunzheng_worker_jobs\{job="capture",state="failed"\} 0$/m);
      expect(res.body).toMatch(/^cunzheng_worker_job_oldest_wait_seconds\{job="capture"\} 0$/m);
      // the three job gauges of one scrape read the queue once
      const stats = vi.spyOn(app.jobs!, 'stats');
      const scrape = await app.inject({
        url: PLATFORM_METRICS_PATH,
        headers: { 'x-internal-key': app.internalKey },
      });
      expect(scrape.body).toContain('# TYPE cunzheng_jobs_failed gauge');
      expect(stats).toHaveBeenCalledTimes(1);
      await app.inject({ url: PLATFORM_METRICS_PATH, headers: { 'x-internal-key': app.internalKey } });
      expect(stats).toHaveBeenCalledTimes(2);
    } finally {
      await app.close();
      await pg.drop();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
