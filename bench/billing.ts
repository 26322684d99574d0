/**
 * Payment notification benchmark (`npm run bench:billing`; BENCH_DIALECTS narrows): on SQLite (a temp DATA_DIR)
 * and on PostgreSQL (a fresh database on TEST_PG_URL's server, skipped when it cannot be reached), a platform
 * listening on loopback receives BENCH_NOTIFICATIONS (default 2000) genuine, distinct notifications per provider over
 * HTTP (a node:http keep-alive client), BENCH_CONCURRENCY (default 16) at a time: WeChat Pay (RSA signature,
 * AES-256-GCM resource) and Alipay (RSA2, form-encoded), each for its own pending order spread over 50 users, signed
 * by the sandboxes' keys. Each one is verified, checked against its order and applied in its own transaction (one
 * credit, one journal entry, the stored raw notification).
 * Prints, per dialect and provider: notifications applied per second (goal ≥ 500/s), the notify endpoint's p50 and
 * p99 latency, and the process's CPU time per notification (the sender's share included, the PostgreSQL server's
 * not), which says more than the rate on a busy machine. Figures, not pass/fail: it exits non-zero only when a
 * notification is not applied exactly once.
 */
import { percentile } from './support/stats.ts';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BillingNotifyPaths, PayStatus, PayType } from '../contract/billing.ts';
import { createUser } from '../platform/account/users.ts';
import { buildPlatform } from '../platform/app.ts';
import { buildAlipayNotification, type SandboxTrade } from '../platform/billing/alipay-cashier-store.ts';
import { newOrderNo } from '../platform/billing/money.ts';
import { buildNotification } from '../platform/billing/wechatpay/sandbox-notify.ts';
import type { SandboxOrder } from '../platform/billing/wechatpay/sandbox-store.ts';
import { loadOrCreateSandboxKeys } from '../platform/kyc/alipay-sandbox-keys.ts';
import { createTestDatabase, testConfig } from '../tests/support/platform.ts';
import { benchNumber, benchSetting } from './support/environment.ts';

const N = benchNumber('BENCH_NOTIFICATIONS', 2000);
const CONCURRENCY = benchNumber('BENCH_CONCURRENCY', 16);
const USERS = 50;
const print = (line = '') => process.stdout.write(`${line}\n`);

/** One notification ready to POST. */
interface Delivery {
  orderNo: string;
  headers: Record<string, string>;
  body: string;
}

/** Creates `n` pending recharges of 10 points (1000 fen) of `payType`, spread over the users. */
async function pendingOrders(
  app: FastifyInstance,
  users: number[],
  n: number,
  payType: number,
): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const rows = Array.from({ length: n }, (_, i) => ({
    order_no: newOrderNo('R', now),
    user_id: users[i % users.length]!,
    kind: 'recharge' as const,
    points: 10,
    amount_fen: 1000,
    pay_type: payType,
    status: PayStatus.pending,
    description: '充值10积分',
    expires_at: now + 1800,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await app.pdb.db
      .insertInto('billing_orders')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  return rows.map((r) => r.order_no);
}

async function wechatDeliveries(app: FastifyInstance, orderNos: string[]): Promise<Delivery[]> {
  const sandbox = app.billing.sandboxes.wechat!;
  return orderNos.map((no) => {
    const order: SandboxOrder = {
      prId: no.slice(-32).padStart(32, '0'),
      mchid: sandbox.mchid,
      appid: sandbox.appid,
      outTradeNo: no,
      description: '充值10积分',
      amountFen: 1000,
      currency: 'CNY',
      notifyUrl: '',
      tradeState: 'SUCCESS',
      createdAt: Date.now(),
      settledAt: Date.now(),
      notify: { attempts: [], acknowledged: false },
    };
    const n = buildNotification(order, sandbox.keys, Date.now());
    return { orderNo: no, headers: { ...n.headers, 'content-type': 'application/json' }, body: n.body };
  });
}

async function alipayDeliveries(
  app: FastifyInstance,
  orderNos: string[],
  dataDir: string,
): Promise<Delivery[]> {
  const keys = await loadOrCreateSandboxKeys(dataDir);
  const sellerId = app.billing.sandboxes.alipay!.sellerId;
  return orderNos.map((no, i) => {
    const trade: SandboxTrade = {
      cashierId: '',
      tradeNo: `2025010122001${String(i).padStart(15, '0')}`,
      appId: keys.appId,
      sellerId,
      outTradeNo: no,
      subject: '充值10积分',
      totalAmount: '10.00',
      notifyUrl: '',
      returnUrl: '',
      status: 'TRADE_SUCCESS',
      createdAt: Date.now(),
      paidAt: Date.now(),
      notifyId: `bench${i}`,
      notify: { attempts: [], acknowledged: false },
    };
    const fields = buildAlipayNotification(trade, keys, Date.now());
    return {
      orderNo: no,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(fields).toString(),
    };
  });
}

/** One POST over a keep-alive agent (node:http: lighter than fetch, so the figures are the server's). */
function postOnce(url: URL, agent: http.Agent, d: Delivery): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: d.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(d.body);
  });
}

/** Posts every delivery, CONCURRENCY at a time. @returns latencies (ms), elapsed ms, and refused deliveries */
async function deliver(url: string, deliveries: Delivery[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL(url);
  const latencies: number[] = [];
  let refused = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const t0 = performance.now();
        const res = await postOnce(target, agent, d);
        latencies.push(performance.now() - t0);
        if (!(res.status === 204 || res.body === 'success')) refused++;
      }
    }),
  );
  agent.destroy();
  return { latencies, elapsed: performance.now() - started, refused };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-bench-billing-'));
  let drop: (() => Promise<void>) | undefined;
  let url: string | undefined;
  if (dialect === 'postgres') {
    try {
      ({ url, drop } = await createTestDatabase());
    } catch (err) {
      print(`postgres: skipped (${(err as Error).message})`);
      return true;
    }
  }
  const app = await buildPlatform(testConfig(dataDir, url, { SEED_DEMO: '0' }), { logger: false });
  let ok = true;
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const users: number[] = [];
    for (let i = 0; i < USERS; i++) {
      users.push(
        (await createUser(app.pdb.db, { mobile: `139${String(i).padStart(8, '0')}`, passwordHash: 'x' }))!,
      );
    }
    for (const [name, payType, path_] of [
      ['wechat', PayType.wechat, BillingNotifyPaths.wechat],
      ['alipay', PayType.alipay, BillingNotifyPaths.alipay],
    ] as const) {
      const orders = await pendingOrders(app, users, N, payType);
      const deliveries =
        name === 'wechat'
          ? await wechatDeliveries(app, orders)
          : await alipayDeliveries(app, orders, dataDir);
      const cpu0 = process.cpuUsage();
      const { latencies, elapsed, refused } = await deliver(`${base}${path_}`, deliveries);
      const cpu = process.cpuUsage(cpu0);
      const applied = await app.pdb.db
        .selectFrom('billing_notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('provider', '=', name)
        .where('verdict', '=', 'applied')
        .executeTakeFirstOrThrow();
      const perSecond = (Number(applied.n) / elapsed) * 1000;
      print(
        `${dialect.padEnd(8)} ${name.padEnd(6)} ${N} notifications, ${CONCURRENCY} concurrent: ` +
          `${Math.round(perSecond)} applied/s; notify latency p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
          `CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms a notification (sender included)` +
          (refused ? `; ${refused} REFUSED` : ''),
      );
      if (Number(applied.n) !== N || refused) ok = false;
    }
    const sums = await app.pdb.db
      .selectFrom('users')
      .select((eb) => eb.fn.sum<number>('points').as('p'))
      .executeTakeFirstOrThrow();
    if (Number(sums.p) !== 2 * N * 10) {
      print(`${dialect}: balances sum to ${sums.p}, expected ${2 * N * 10}`);
      ok = false;
    }
  } finally {
    await app.close();
    await drop?.();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
  return ok;
}

print(`bench:billing — ${N} notifications per provider, ${CONCURRENCY} concurrent, Node ${process.version}`);
const dialects = (benchSetting('BENCH_DIALECTS') ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const results: boolean[] = [];
for (const d of ['sqlite', 'postgres'] as const) if (dialects.includes(d)) results.push(await run(d));
if (results.includes(false)) {
  print('FAILED: a notification was not applied exactly once');
  process.exitCode = 1;
}
