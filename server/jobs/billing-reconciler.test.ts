/**
 * The gateway's payment reconciliation job against a platform on loopback and its sandbox WeChat Pay: a payment
 * whose notification was lost is credited by the job, exactly once although two jobs (two gateways) run; an expired
 * order is closed at the provider too; a job with a wrong key backs off without changing anything.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlatform } from '../../platform/app.ts';
import {
  balances,
  demoToken,
  freePort,
  openAlipay,
  startPay,
  submitCashier,
  userIdOf,
} from '../../tests/support/billing.ts';
import { testConfig } from '../../tests/support/platform.ts';
import type { FastifyInstance } from 'fastify';
import { startServer } from '../start.ts';
import { startBillingReconciler } from './billing-reconciler.ts';

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('billing reconciler', () => {
  let dataDir = '';
  let app: FastifyInstance;
  let url = '';
  beforeAll(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-reconciler-'));
    app = await buildPlatform(testConfig(dataDir, undefined), { logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('credits a lost payment once with two jobs running, and closes an expired order', async () => {
    const token = await demoToken(app);
    const demoId = await userIdOf(app, '13800138000');
    const before = await balances(app, demoId);
    const lost = await startPay(app, token, 25, 3);
    const expired = await startPay(app, token, 6, 3);
    const sandbox = app.billing.sandboxes.wechat!;
    await sandbox.store.update(sandbox.order(lost.order_no)!, (o) => {
      o.tradeState = 'SUCCESS';
      o.settledAt = Date.now();
    });
    const past = Math.floor(Date.now() / 1000) - 600;
    await app.pdb.db
      .updateTable('billing_orders')
      .set({ created_at: past, check_after: 0 })
      .where('order_no', 'in', [lost.order_no, expired.order_no])
      .execute();
    await app.pdb.db
      .updateTable('billing_orders')
      .set({ expires_at: past + 60 })
      .where('order_no', '=', expired.order_no)
      .execute();
    const log = pino({ level: 'silent' });
    const jobs = [1, 2].map(() =>
      startBillingReconciler({ upstreamUrl: url, internalKey: app.internalKey, log, intervalMs: 50 }),
    );
    const denied = startBillingReconciler({
      upstreamUrl: url,
      internalKey: 'x'.repeat(64),
      log,
      intervalMs: 10,
    });
    try {
      const credited = await waitFor(
        async () => (await balances(app, demoId)).points === before.points + 25,
        10_000,
      );
      expect(credited).toBe(true);
      const closed = await waitFor(
        async () => sandbox.order(expired.order_no)?.tradeState === 'CLOSED',
        10_000,
      );
      expect(closed).toBe(true);
      await waitFor(async () => jobs.every((j) => j.rounds >= 5), 5000);
    } finally {
      await Promise.all([...jobs, denied].map((j) => j.stop()));
    }
    expect(await balances(app, demoId)).toEqual({ points: before.points + 25, journal: before.points + 25 });
    const rows = await app.pdb.db
      .selectFrom('billing_orders')
      .select(['order_no', 'status'])
      .where('order_no', 'in', [lost.order_no, expired.order_no])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.order_no, Number(r.status)]))).toEqual({
      [lost.order_no]: 2,
      [expired.order_no]: 3,
    });
    // The wrong key backs off: 10, 20, 40 … ms apart, so only a handful of passes.
    expect(denied.rounds).toBeGreaterThan(0);
    expect(denied.rounds).toBeLessThan(12);
  });

  it('runs with the server, whose /api proxy brings the notifications of the providers to the platform', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-billing-gateway-'));
    const port = await freePort();
    const running = await startServer(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        APP_ENV: 'test',
        TEST_HOOKS: '1',
        SCRYPT_N: '1024',
      },
      // the test reads the platform's database: in the gateway's thread
      { build: false, embeddedPlatform: 'inline' },
    );
    try {
      const platform = running.platform!;
      const token = await demoToken(platform);
      const demoId = await userIdOf(platform, '13800138000');
      const before = await balances(platform, demoId);
      const a = await startPay(platform, token, 50, 2);
      const w = await startPay(platform, token, 50, 3);
      await submitCashier(await openAlipay(a.url), 'success');
      await submitCashier(w.url, 'success');
      await platform.billing.sandboxes.alipay!.deliveriesIdle();
      await platform.billing.sandboxes.wechat!.deliveriesIdle();
      expect(await balances(platform, demoId)).toEqual({
        points: before.points + 100,
        journal: before.points + 100,
      });
      const verdicts = await platform.pdb.db
        .selectFrom('billing_notifications')
        .select('verdict')
        .where('order_no', 'in', [a.order_no, w.order_no])
        .execute();
      expect(verdicts.map((v) => v.verdict)).toEqual(['applied', 'applied']);
    } finally {
      await running.closeAll();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
