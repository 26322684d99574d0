/**
 * SMS quotas (docs/decisions/025-secrets-sms.md), on SQLite and PostgreSQL, with small configured counts: per client
 * IP an hour (20 different mobiles at once from one IP: exactly the quota gets codes), per mobile an hour and a day
 * (the refusal names when to try again), and a retry within the minute uses no quota. Also: the sandbox never puts
 * a code in the process log outside development/test.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { AccountMsg, AccountPaths } from '../../contract/account.ts';
import { buildPlatform } from '../app.ts';
import { call, forEachDialect, get, lastSmsCode, post, testConfig } from '../../tests/support/platform.ts';

const LIMITS = { SMS_MAX_PER_IP_HOUR: '6', SMS_MAX_PER_MOBILE_HOUR: '3', SMS_MAX_PER_MOBILE_DAY: '4' };

async function captcha(app: FastifyInstance) {
  const img = await post<{ key: string }>(app, AccountPaths.imgCode);
  const code = (await get<{ code: string }>(app, '/api/__test/captcha', { key: img.data.key })).data.code;
  return { imgKey: img.data.key, imgCode: code };
}

/** sendSMS for `mobile` as if from client `ip`. */
async function sendFrom(app: FastifyInstance, mobile: string, ip: string) {
  return call(app, {
    method: 'POST',
    url: AccountPaths.sendSms,
    remoteAddress: ip,
    payload: { mobile, ...(await captcha(app)) },
  });
}

forEachDialect(
  'SMS quotas',
  (h) => {
    /** Moves the mobile's last send out of the one-minute gap (the quotas stay). */
    const pastTheMinute = (mobile: string) =>
      h.app.pdb.db
        .updateTable('sms_codes')
        .set((eb) => ({ sent_at: eb('sent_at', '-', 61) }))
        .where('mobile', '=', mobile)
        .execute();

    it('per client IP an hour: of 20 mobiles at once from one IP, exactly the quota get codes', async () => {
      const mobiles = Array.from({ length: 20 }, (_, i) => `1381000${String(i).padStart(4, '0')}`);
      const captchas = await Promise.all(mobiles.map(() => captcha(h.app)));
      const answers = await Promise.all(
        mobiles.map((mobile, i) =>
          call(h.app, {
            method: 'POST',
            url: AccountPaths.sendSms,
            remoteAddress: '203.0.113.7',
            payload: { mobile, ...captchas[i] },
          }),
        ),
      );
      expect(answers.filter((a) => a.code === 200)).toHaveLength(6);
      const refused = answers.filter((a) => a.code !== 200);
      expect(refused).toHaveLength(14);
      expect(new Set(refused.map((a) => a.msg))).toEqual(new Set([AccountMsg.smsLimited(60)]));
      // another client is not affected
      expect((await sendFrom(h.app, '13810009999', '203.0.113.8')).code).toBe(200);
    });

    it('per mobile an hour and a day; a retry within the minute uses no quota', async () => {
      const mobile = '13820000001';
      const ip = '198.51.100.1';
      for (let i = 0; i < 3; i++) {
        expect((await sendFrom(h.app, mobile, ip)).code).toBe(200);
        // within the minute: the gap refuses, and the quota is not used
        expect((await sendFrom(h.app, mobile, ip)).msg).toBe(AccountMsg.smsTooFrequent);
        await pastTheMinute(mobile);
      }
      const hour = await sendFrom(h.app, mobile, ip);
      expect([hour.code, hour.msg]).toEqual([429, AccountMsg.smsLimited(60)]);
      // the hour passes (every window moved back by an hour and a second): one more fits the day's 4
      await h.app.pdb.db
        .updateTable('attempt_counters')
        .set((eb) => ({ window_start: eb('window_start', '-', 3601) }))
        .execute();
      expect((await sendFrom(h.app, mobile, ip)).code).toBe(200);
      await pastTheMinute(mobile);
      const day = await sendFrom(h.app, mobile, ip);
      expect([day.code, day.msg]).toEqual([429, AccountMsg.smsLimited(24 * 60 - 60)]);
      expect(day.msg).toBe('验证码发送次数过多，请23小时后再试');
      // the code sent before still works
      expect(await lastSmsCode(h.dataDir, mobile)).toMatch(/^\d{6}$/);
    });
  },
  LIMITS,
);

it('logs the sandbox code only with APP_ENV development/test', async () => {
  for (const appEnv of ['production', 'test'] as const) {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-sms-log-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const config = {
      ...testConfig(dataDir, undefined, { APP_ENV: appEnv, TEST_HOOKS: '0', SCRYPT_N: '16384' }),
      testHooks: true,
    };
    const app = await buildPlatform(config, { logger: { level: 'info', stream } });
    try {
      const mobile = '13830000001';
      expect((await sendFrom(app, mobile, '192.0.2.1')).code).toBe(200);
      const code = await lastSmsCode(dataDir, mobile);
      const text = lines.join('');
      expect(text).toContain('sandbox SMS written to the outbox');
      if (appEnv === 'production') {
        expect(text).not.toContain(code);
        expect(text).not.toContain(mobile);
        expect(text).not.toContain('demo1234');
      } else {
        expect(text).toContain(`"code":"${code}"`);
      }
    } finally {
      await app.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  }
});
