/**
 * The platform dies between "notification verified" and "answered" (decision 018): a child process runs the real
 * platform entry (platform/main.ts) with a preloaded hook that SIGKILLs the process when the first notification's
 * answer is about to be written — after the credit committed, before the provider hears back. The sandboxes, in
 * the same process, die with it; on restart they deliver the unacknowledged notification again, and the order is
 * credited exactly once. Alipay and WeChat Pay, on SQLite and PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPaths } from '../../contract/account.ts';
import { BillingPaths, type PayData } from '../../contract/billing.ts';
import { HEALTH_PATH } from '../app.ts';
import { loadPlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { freePort, openAlipay, submitCashier } from '../../tests/support/billing.ts';
import { createTestDatabase } from '../../tests/support/platform.ts';
import { childEnvironment, testDialects } from '../../tests/support/environment.ts';

const DIALECTS = testDialects();

/** Preloaded into the child: SIGKILL when the answer to a notification is about to be written, once per flag file. */
const KILL_HOOK = `
import fs from 'node:fs';
import http from 'node:http';
const flag = process.env.CZ_KILL_FLAG;
const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function (...args) {
  if (this.req?.url?.startsWith('/api/notify/') && flag && fs.existsSync(flag)) {
    fs.rmSync(flag);
    process.kill(process.pid, 'SIGKILL');
  }
  return writeHead.apply(this, args);
};
`;

describe.each(DIALECTS)('kill between verified and answered [%s]', (dialect) => {
  let dir = '';
  let port = 0;
  let env: Record<string, string> = {};
  let child: ChildProcess | null = null;
  let log = '';
  let drop: (() => Promise<void>) | undefined;
  const base = () => `http://127.0.0.1:${port}`;

  async function start(): Promise<void> {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', path.join(dir, 'kill-hook.mjs'), 'platform/main.ts'],
      {
        env: childEnvironment(env),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    for (let i = 0; i < 300; i++) {
      const up = await fetch(`${base()}${HEALTH_PATH}`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`platform did not start: ${log}`);
  }

  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve(c.signalCode)
      : new Promise<NodeJS.Signals | null>((resolve) => c.once('exit', (_code, signal) => resolve(signal)));

  async function api<T>(url: string, body: Record<string, unknown>, token?: string): Promise<T> {
    const res = await fetch(`${base()}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const env = (await res.json()) as { code: number; msg: string; data: T };
    if (env.code !== 200) throw new Error(`${url}: ${env.code} ${env.msg}`);
    return env.data;
  }

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-kill-'));
    await fsp.writeFile(path.join(dir, 'kill-hook.mjs'), KILL_HOOK);
    port = await freePort();
    let url: string | undefined;
    if (dialect === 'postgres') ({ url, drop } = await createTestDatabase());
    env = {
      DATA_DIR: path.join(dir, 'data'),
      ...(url ? { DATABASE_URL: url } : {}),
      PLATFORM_PORT: String(port),
      PUBLIC_URL: base(),
      APP_ENV: 'test',
      TEST_HOOKS: '1',
      SCRYPT_N: '1024',
      LOG_LEVEL: 'warn',
      CZ_KILL_FLAG: path.join(dir, 'kill.flag'),
      // Re-send the resumed notification 1 s after a restart instead of the default 5 s (test hooks only); the
      // retries 1 s and 4 s later still cover a platform that is slow to listen.
      SANDBOX_RESUME_DELAY_MS: '1000',
    };
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    await drop?.();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it(
    'credits once after the platform died before answering, for Alipay and WeChat Pay',
    { timeout: 120_000 },
    async () => {
      await start();
      const pdb = openDatabase(loadPlatformConfig(env).database);
      const verdicts = async (no: string) =>
        (
          await pdb.db
            .selectFrom('billing_notifications')
            .select('verdict')
            .where('order_no', '=', no)
            .orderBy('id')
            .execute()
        ).map((r) => r.verdict);
      try {
        const { token } = await api<{ token: string }>(AccountPaths.login, {
          mobile: '13800138000',
          password: 'demo1234',
        });
        const points = async () => (await api<{ points: number }>('/api/user/getAuthInfo', {}, token)).points;
        const before = await points();
        for (const [i, type] of ([2, 3] as const).entries()) {
          const paid = await api<PayData>(BillingPaths.pay, { integral: 50, type }, token);
          await fsp.writeFile(env.CZ_KILL_FLAG!, '1');
          const dying = child!;
          const page = type === 2 ? await openAlipay(paid.url) : paid.url;
          await submitCashier(page, 'success').catch(() => '');
          expect(await exited(dying)).toBe('SIGKILL');
          // Died after the credit committed, before the provider heard back.
          expect(await verdicts(paid.order_no)).toEqual(['applied']);
          await start();
          const deadline = Date.now() + 30_000;
          while ((await verdicts(paid.order_no)).length < 2 && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 250));
          }
          expect(await verdicts(paid.order_no)).toEqual(['applied', 'duplicate']);
          expect(await points()).toBe(before + 50 * (i + 1));
          const journal = await pdb.db
            .selectFrom('points_journal')
            .innerJoin('billing_orders', 'billing_orders.id', 'points_journal.order_id')
            .select('points_journal.points')
            .where('billing_orders.order_no', '=', paid.order_no)
            .execute();
          expect(journal.map((j) => Number(j.points))).toEqual([50]);
        }
      } finally {
        await pdb.close();
      }
    },
  );
});
