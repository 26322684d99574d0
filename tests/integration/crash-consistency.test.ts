/**
 * Scale-out under failure (decision 046): two platform processes and two gateway processes on
 * loopback, on one PostgreSQL database and one S3-compatible store (s3rver), gateway 1 in front of platform 1 and
 * gateway 2 in front of platform 2. Logins, uploads and a payment go through both gateways alternately; failed
 * logins through both count against one limit; then gateway 1 and platform 2 are killed with SIGKILL while an upload
 * streams through each. After platform 2 and gateway 1 are started again:
 * - every acknowledged evidence is read back through the other gateway with its SHA-256;
 * - the ledger holds exactly one entry per evidence and audits clean;
 * - every object in the store is named by an evidence row or by the intent a killed save left, and after the sweep
 *   (platform/files/intents.ts) exactly the named ones remain;
 * - each recurring job's chain is single (pg-boss: at most one queued and one running run per task) and alive;
 * - the payment is credited exactly once.
 * The business limits are counted in the database (decision 040): failed logins through both gateways meet one. The
 * gateways' front-line per-IP limit is counted in Redis (127.0.0.1:6379, REDIS_URL; decision 048): lookups through
 * both gateways spend one budget.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { rmSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMsg } from '../../contract/account-codes.ts';
import { BillingPaths, PayType, type PayData } from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import {
  EvidencePaths,
  type DownloadData,
  type EvidenceView,
  type SaveEvidenceData,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { VerifyMsg, VerifyPaths } from '../../contract/verify.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { S3FileStorage } from '../../platform/files/s3-storage.ts';
import { sweepIntents } from '../../platform/files/intents.ts';
import { auditLedger } from '../../platform/ledger/audit.ts';
import { payAtAlipay } from '../support/billing.ts';
import {
  closedPort,
  DEMO_MOBILE,
  DEMO_PASSWORD,
  freshDataDir,
  SESSION_SECRET,
  whenHealthy,
  exitOf,
  type Envelope,
} from '../support/integration.ts';
import { createTestDatabase } from '../support/platform.ts';
import { startS3 } from '../support/s3.ts';
import { childEnvironment } from '../support/environment.ts';

const INTERNAL_KEY = 'crash-test-internal-key-0123456789abcdef';
/**
 * The gateways' RATE_LIMIT_PER_MINUTE (server/http/rate-limit.ts): each group of requests gets this many a minute per
 * client IP. Above the 14 logins of the test, below the platform's own 30 lookups a minute (so a refused lookup is
 * the gateways' refusal, HTTP 429, not the platform's envelope).
 */
const GATEWAY_LIMIT = 20;
/** This run's Redis keys (runs and other suites do not share counters). */
const RATE_LIMIT_NAMESPACE = `cz-crash-${randomUUID()}:`;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('two gateways and two platforms, killed mid-upload', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const shared = freshDataDir();
  const gatewayDirs = [freshDataDir(), freshDataDir()];
  const platformPorts: number[] = [];
  const gatewayPorts: number[] = [];
  const platforms: (ChildProcess | null)[] = [null, null];
  const gateways: (ChildProcess | null)[] = [null, null];
  let storageEnv: Record<string, string>;
  const base = (i: number) => `http://127.0.0.1:${gatewayPorts[i]}`;

  const startPlatform = async (i: number) => {
    const env = childEnvironment({
      ...storageEnv,
      APP_ENV: 'test',
      DATA_DIR: shared,
      DATABASE_URL: db.url,
      PLATFORM_HOST: '127.0.0.1',
      PLATFORM_PORT: String(platformPorts[i]),
      PUBLIC_URL: base(0),
      INTERNAL_API_KEY: INTERNAL_KEY,
      SCRYPT_N: '1024',
      LOG_LEVEL: 'silent',
      SEED_DEMO: '1',
    });
    platforms[i] = spawn(process.execPath, ['platform/main.ts'], { env, stdio: 'ignore' });
    await whenHealthy(`http://127.0.0.1:${platformPorts[i]}/api/healthz`, 60_000, platforms[i]);
  };
  const startGateway = async (i: number) => {
    const env = childEnvironment({
      NODE_ENV: 'production',
      APP_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(gatewayPorts[i]),
      DATA_DIR: gatewayDirs[i]!,
      UPSTREAM_URL: `http://127.0.0.1:${platformPorts[i]}`,
      INTERNAL_API_KEY: INTERNAL_KEY,
      SESSION_SECRET,
      LOG_LEVEL: 'silent',
      // the front-line per-IP limit, shared by both gateways through Redis
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_PER_MINUTE: String(GATEWAY_LIMIT),
      RATE_LIMIT_NAMESPACE,
    });
    gateways[i] = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'ignore' });
    await whenHealthy(`${base(i)}/healthz`, 60_000, gateways[i]);
  };

  beforeAll(async () => {
    s3 = await startS3();
    db = await createTestDatabase();
    storageEnv = s3.env('crash');
    for (let i = 0; i < 2; i++) {
      platformPorts.push(await closedPort());
      gatewayPorts.push(await closedPort());
    }
    await Promise.all([startPlatform(0), startPlatform(1)]);
    await Promise.all([startGateway(0), startGateway(1)]);
  }, 120_000);

  afterAll(async () => {
    for (const p of [...gateways, ...platforms]) p?.kill('SIGTERM');
    await Promise.all([...gateways, ...platforms].map((p) => (p ? exitOf(p) : undefined)));
    await db?.drop();
    await s3?.stop();
    for (const d of [shared, ...gatewayDirs]) rmSync(d, { recursive: true, force: true });
  });

  const login = async (i: number, password = DEMO_PASSWORD, mobile = DEMO_MOBILE) => {
    const res = await fetch(`${base(i)}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile, password }),
    });
    return (await res.json()) as Envelope<{ token: string; userInfo: { points: number } }>;
  };
  const save = async (i: number, token: string, bytes: Buffer) => {
    const form = new FormData();
    form.set('title', '故障演练');
    form.set('file', new Blob([new Uint8Array(bytes)]), 'c.bin');
    const res = await fetch(`${base(i)}${EvidencePaths.save}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return (await res.json()) as Envelope<SaveEvidenceData>;
  };
  /** Streams a multipart upload slowly through gateway `i`; `onSent` is called once `killAt` bytes are out. */
  const slowUpload = (i: number, token: string, killAt: number, onSent: () => void) =>
    new Promise<string>((resolve) => {
      const boundary = 'crashboundary';
      const req = http.request(`${base(i)}${EvidencePaths.save}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(`answered ${res.statusCode}`));
      });
      req.on('error', (err) => resolve(`failed ${err.message}`));
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n中断\r\n`);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
      let sent = 0;
      let signalled = false;
      const timer = setInterval(() => {
        if (req.destroyed || sent > 64 * 1024 * 1024) return clearInterval(timer);
        const chunk = randomBytes(64 * 1024);
        sent += chunk.length;
        req.write(chunk);
        if (!signalled && sent >= killAt) {
          signalled = true;
          onSent();
        }
      }, 10);
      req.on('close', () => clearInterval(timer));
    });

  it('keeps every acknowledged evidence, one ledger entry each, no orphan object, single job chains', async () => {
    // failed logins through both gateways count against one limit (10 in 15 minutes, decision 021)
    const stranger = '13900001234';
    for (let n = 0; n < 10; n++) expect((await login(n % 2, 'wrong-password', stranger)).code).not.toBe(200);
    const locked = await login(1, 'wrong-password', stranger);
    expect(locked.msg).toBe(AccountMsg.loginLocked(15));

    // the gateways' per-IP limit counts across both (Redis): GATEWAY_LIMIT lookups, half through each, reach the
    // platform; the next one is refused by either gateway, though neither alone saw more than half the budget
    const lookup = (i: number) =>
      fetch(`${base(i)}${VerifyPaths.bqno}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ no: 'BQ20260101000000000000000000' }),
      });
    for (let n = 0; n < GATEWAY_LIMIT; n++) {
      const res = await lookup(n % 2);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Envelope).msg).toBe(VerifyMsg.evidenceNumberNotFound);
      if (n === GATEWAY_LIMIT - 1) expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    for (const i of [0, 1]) {
      const refused = await lookup(i);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({
        code: ApiCode.TOO_MANY_REQUESTS,
        msg: Msg.tooManyRequests,
        data: null,
      });
    }

    const token = (await login(0)).data.token;
    const pointsBefore = (await login(1)).data.userInfo.points;
    const acknowledged: { baoquan: string; sha256: string }[] = [];
    for (let n = 0; n < 8; n++) {
      const bytes = randomBytes(10_000 + n * 999);
      const r = await save(n % 2, token, bytes);
      expect(r.code, r.msg).toBe(200);
      acknowledged.push({ baoquan: r.data.baoquan, sha256: sha(bytes) });
    }

    // a payment started through gateway 2, paid at the sandbox cashier, notified through gateway 1
    const payRes = await fetch(`${base(1)}${BillingPaths.pay}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ integral: '30', type: String(PayType.alipay) }),
    });
    const pay = (await payRes.json()) as Envelope<PayData>;
    expect(pay.code, pay.msg).toBe(200);
    await payAtAlipay(pay.data.url);

    // kill gateway 1 and platform 2, each in the middle of an upload through it
    const killed = await Promise.all([
      slowUpload(0, token, 2 * 1024 * 1024, () => gateways[0]!.kill('SIGKILL')),
      slowUpload(1, token, 2 * 1024 * 1024, () => platforms[1]!.kill('SIGKILL')),
    ]);
    // the client of the killed gateway loses its connection; the gateway of the killed platform answers 502
    expect(killed[0]).toMatch(/^failed /);
    expect(killed[1]).toMatch(/^answered 50[24]$|^failed /);
    await Promise.all([exitOf(gateways[0]!), exitOf(platforms[1]!)]);
    // the supervisor starts them again
    await startPlatform(1);
    await startGateway(0);

    // every acknowledged evidence, read through the other gateway than the one it was saved through
    for (const [n, a] of acknowledged.entries()) {
      const other = (n + 1) % 2;
      const view = (await (
        await fetch(`${base(other)}${EvidencePaths.view}?baoquan=${a.baoquan}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as Envelope<EvidenceView>;
      expect(view.data.filehash).toBe(a.sha256);
      const link = (await (
        await fetch(`${base(other)}${EvidencePaths.ownerDownload}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ dataId: String(view.data.id) }),
        })
      ).json()) as Envelope<DownloadData>;
      const bytes = Buffer.from(await (await fetch(new URL(link.data.downUrl, base(other)))).arrayBuffer());
      expect(sha(bytes)).toBe(a.sha256);
    }

    // the payment: confirmed through gateway 1, credited once
    const confirm = await fetch(`${base(0)}${BillingPaths.doPay}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ order_no: pay.data.order_no }),
    });
    expect(((await confirm.json()) as Envelope).code).toBe(200);
    expect((await login(1)).data.userInfo.points).toBe(pointsBefore + 30);

    const pdb = openDatabase({ dialect: 'postgres', url: db.url });
    const store = new S3FileStorage({ ...s3.config, prefix: 'crash/' });
    const s3client = new S3Client({
      endpoint: s3.config.endpoint,
      region: s3.config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.config.accessKeyId!, secretAccessKey: s3.config.secretAccessKey! },
    });
    try {
      // one ledger entry per evidence, and the log audits clean
      const evidences = await pdb.db.selectFrom('evidences').select(['id', 'storage_key']).execute();
      const leaves = await pdb.db.selectFrom('ledger_leaves').select('evidence_id').execute();
      expect(leaves.map((l) => l.evidence_id).sort((a, b) => a - b)).toEqual(
        evidences.map((e) => e.id).sort((a, b) => a - b),
      );
      expect(evidences.length).toBe(acknowledged.length);
      expect(await auditLedger(pdb.db)).toMatchObject({ ok: true, treeSize: acknowledged.length });

      // objects: named by a row, or by the intent of a killed save, which the sweep removes
      const objects = async () =>
        (
          (
            await s3client.send(
              new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: 'crash/evidence/' }),
            )
          ).Contents ?? []
        )
          .map((o) => o.Key!.slice('crash/evidence/'.length))
          .sort();
      const named = evidences.map((e) => e.storage_key).sort();
      const intents = (await pdb.db.selectFrom('file_intents').select('storage_key').execute()).map(
        (i) => i.storage_key,
      );
      for (const key of await objects()) expect([...named, ...intents]).toContain(key);
      await sweepIntents(pdb.db, store, 0);
      expect(await objects()).toEqual(named);

      // each recurring task: at most one queued and one running run, and its chain alive
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ name: string; state: string; n: string }>(
        `select name, state, count(*) as n from pgboss.job where state in ('created', 'retry', 'active') group by name, state`,
      );
      await client.end();
      for (const r of rows) expect(Number(r.n), `${r.name} ${r.state}`).toBe(1);
      for (const task of ['face.poll', 'billing.reconcile', 'files.sweep']) {
        expect(
          rows.some((r) => r.name === task),
          task,
        ).toBe(true);
      }
    } finally {
      s3client.destroy();
      store.destroy();
      await pdb.close();
    }
  }, 180_000);
});
