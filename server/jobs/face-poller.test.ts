/**
 * The gateway's face poller against the embedded platform and the sandbox Alipay gateway: a passed certification
 * is applied without the browser asking (no aliQuery call), exactly once although a second poller (another gateway)
 * polls the same platform, and a poller started after the pass (a restarted gateway) still finds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type FaceStartData, KycPaths } from '../../contract/kyc.ts';
import { idCardCheckChar } from '../../contract/validators.ts';
import { login, post, registerUser } from '../../tests/support/platform.ts';
import { startServer } from '../start.ts';
import { startFacePoller } from './face-poller.ts';

/** A valid national ID number per person (one number verifies one personal account): sequence digits `seq`. */
const idOf = (seq: string) => {
  const first17 = `1101051990030${seq}`;
  return first17 + idCardCheckChar(first17);
};

async function pass(qrContent: string): Promise<void> {
  const res = await fetch(qrContent, { redirect: 'manual' });
  const page = new URL(res.headers.get('location') ?? '', qrContent).toString();
  const pressed = await fetch(page, {
    method: 'POST',
    body: new URLSearchParams({ decision: 'pass' }),
    redirect: 'manual',
  });
  expect(pressed.status).toBe(303);
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('face poller', () => {
  it('applies a passed certification server-side, once, with two pollers and after a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-face-poller-'));
    const running = await startServer(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        APP_ENV: 'test',
        TEST_HOOKS: '1',
        SCRYPT_N: '1024',
      },
      // the test reads the platform's database: in the gateway's thread
      { build: false, embeddedPlatform: 'inline' },
    );
    const platform = running.platform!;
    const second = startFacePoller({
      upstreamUrl: running.upstreamUrl,
      internalKey: platform.internalKey,
      log: pino({ level: 'silent' }),
    });
    try {
      const db = platform.pdb.db;
      const status = async (mobile: string) =>
        (
          await db
            .selectFrom('users')
            .select('user_status')
            .where('mobile', '=', mobile)
            .executeTakeFirstOrThrow()
        ).user_status;
      async function start(mobile: string, name: string, seq: string) {
        await registerUser(platform, dataDir, mobile, 'pass1234', false);
        const token = await login(platform, mobile, 'pass1234');
        const r = await post<FaceStartData>(
          platform,
          KycPaths.aliIdentification,
          { username: name, idCard: idOf(seq), type: '3', address: '北京市东城区1号' },
          token,
        );
        expect(r.code).toBe(200);
        return r.data;
      }

      const a = await start('13400000001', '赵六', '7123');
      await pass(a.qrContent);
      expect(await waitFor(async () => (await status('13400000001')) === '3', 10_000)).toBe(true);
      const news = await db
        .selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.user_id')
        .select('notifications.content')
        .where('users.mobile', '=', '13400000001')
        .execute();
      expect(news.filter((n) => n.content.includes('人脸认证已通过'))).toHaveLength(1);

      // "restart": stop both pollers, pass a certification while none runs, start a fresh one
      expect(running.facePoller).not.toBeNull();
      await running.facePoller!.stop();
      await second.stop();
      const b = await start('13400000002', '钱七', '7145');
      const rounds = second.rounds;
      await pass(b.qrContent);
      await new Promise((r) => setTimeout(r, 3500));
      expect(await status('13400000002')).toBe('1');
      const fresh = startFacePoller({
        upstreamUrl: running.upstreamUrl,
        internalKey: platform.internalKey,
        log: pino({ level: 'silent' }),
        intervalMs: 500,
      });
      try {
        expect(await waitFor(async () => (await status('13400000002')) === '3', 10_000)).toBe(true);
      } finally {
        await fresh.stop();
      }
      expect(second.rounds).toBe(rounds);
      const rows = await db.selectFrom('face_certifications').select('state').execute();
      expect(rows.map((r) => r.state)).toEqual(['passed', 'passed']);
    } finally {
      await second.stop();
      await running.closeAll();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
