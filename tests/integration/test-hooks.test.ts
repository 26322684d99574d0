/**
 * Proves (decision 002 "Test hooks": the captcha answer is read through a test-only hook that a production
 * start refuses to enable): `startServer` with APP_ENV=production and TEST_HOOKS on rejects before listening;
 * with the hooks off — in a test start and in a production start — `/api/__test/*` is an HTTP 404 through the
 * gateway; and, as the control, with TEST_HOOKS=1 outside production the hook answers the real captcha code.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { startServer } from '../../server/start.ts';
import {
  BUILD_DIR,
  freshDataDir,
  startWhole,
  testEnv,
  type Envelope,
  type Whole,
} from '../support/integration.ts';

const started: Whole[] = [];
afterAll(async () => {
  await Promise.all(started.map((w) => w.stop()));
});

describe.sequential('test hooks', () => {
  it.each(['1', 'true', 'yes'])('a production start with TEST_HOOKS=%s rejects', async (flag) => {
    const dataDir = freshDataDir();
    try {
      await expect(
        startServer(
          // A production-grade scrypt cost, so that TEST_HOOKS is the only thing wrong.
          testEnv(dataDir, { APP_ENV: 'production', TEST_HOOKS: flag, SCRYPT_N: '16384' }),
          { mode: 'production', buildDirectory: BUILD_DIR },
        ),
      ).rejects.toThrow(/TEST_HOOKS/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a test start with TEST_HOOKS=0', { APP_ENV: 'test', TEST_HOOKS: '0' }],
    ['a production start without TEST_HOOKS', { APP_ENV: 'production', TEST_HOOKS: '', SCRYPT_N: '16384' }],
  ])('%s answers 404 on /api/__test/*', async (_name, env) => {
    const whole = await startWhole(env);
    started.push(whole);
    const captcha = await fetch(`${whole.base}/api/__test/captcha?key=x`);
    expect(captcha.status).toBe(404);
    expect(await captcha.json()).toEqual({ code: 404, msg: Msg.notFoundPage, data: null });
    const expire = await fetch(`${whole.base}/api/__test/expireTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: '13800138000' }),
    });
    expect(expire.status).toBe(404);
    await expire.body?.cancel();
  });

  it('control: with TEST_HOOKS=1 outside production the hook answers the captcha code', async () => {
    const whole = await startWhole({ APP_ENV: 'test', TEST_HOOKS: '1' });
    started.push(whole);
    const img = (await (
      await fetch(`${whole.base}/api/Register/getImgCode`, { method: 'POST' })
    ).json()) as Envelope<{ key: string; img: string }>;
    expect(img.code).toBe(200);
    expect(img.data.img).toMatch(/^data:image\/svg\+xml/);
    const res = await fetch(`${whole.base}/api/__test/captcha?key=${encodeURIComponent(img.data.key)}`);
    expect(res.status).toBe(200);
    const hook = (await res.json()) as Envelope<{ code: string }>;
    expect(hook.code).toBe(200);
    expect(hook.data.code).toMatch(/^\S{4}$/);
  });
});
