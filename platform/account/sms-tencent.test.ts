/**
 * Tencent Cloud SMS through the real SDK against the loopback sandbox that recomputes its TC3-HMAC-SHA256 signature
 * (docs/decisions/025-secrets-sms.md): a good key pair sends (number, template, code as the one parameter); a wrong
 * secret key, an unknown SecretId, a wrong template or sign name fail with Tencent's codes; a per-number limit is a
 * `limited` refusal. Through the platform with SMS_PROVIDER=tencent: sendSMS answers 200 and the code registers; a
 * refused send answers 短信发送失败 and leaves no usable code; the config requires every setting.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMsg, AccountPaths } from '../../contract/account.ts';
import { Msg } from '../../contract/messages.ts';
import { buildPlatform } from '../app.ts';
import { ConfigError, loadPlatformConfig, type TencentSmsConfig } from '../config.ts';
import { get, post, testConfig } from '../../tests/support/platform.ts';
import { SmsSendError } from './sms.ts';
import { startTencentSmsSandbox, type TencentSmsSandbox } from './sms-tencent-sandbox.ts';
import { TencentSmsProvider } from './sms-tencent.ts';

const SECRET_ID = 'AKIDsandbox0000000000000000000000001';
const SECRET_KEY = 'sandbox-secret-key-0000000000000001';
const TEMPLATES = { code: '100001', kycApproved: '100002', kycRejected: '100003' };

let sandbox: TencentSmsSandbox;
beforeAll(async () => {
  sandbox = await startTencentSmsSandbox({
    keys: { [SECRET_ID]: SECRET_KEY },
    sdkAppId: '1400000001',
    signName: '存证云',
    templates: [
      { id: TEMPLATES.code, params: 1 },
      { id: TEMPLATES.kycApproved, params: 0 },
      { id: TEMPLATES.kycRejected, params: 0 },
    ],
    dailyLimited: ['+8613900009999'],
  });
});
afterAll(async () => sandbox?.close());

const config = (over: Partial<TencentSmsConfig> = {}): TencentSmsConfig => ({
  secretId: SECRET_ID,
  secretKey: SECRET_KEY,
  sdkAppId: '1400000001',
  signName: '存证云',
  region: 'ap-guangzhou',
  templates: TEMPLATES,
  endpoint: sandbox.endpoint,
  ...over,
});

/** The SmsSendError `p` rejects with. */
async function refusal(p: Promise<unknown>): Promise<SmsSendError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsSendError);
  return err as SmsSendError;
}

describe('Tencent Cloud SMS provider (real SDK, signature-checking sandbox)', () => {
  it('sends a code and the KYC notices with their templates', async () => {
    const p = new TencentSmsProvider(config());
    await p.send('13900000001', { kind: 'code', purpose: 'register', code: '042917' });
    await p.send('13900000001', { kind: 'kycApproved' });
    await p.send('13900000001', { kind: 'kycRejected' });
    expect(sandbox.sent.slice(-3)).toEqual([
      { phoneNumber: '+8613900000001', templateId: TEMPLATES.code, params: ['042917'], signName: '存证云' },
      { phoneNumber: '+8613900000001', templateId: TEMPLATES.kycApproved, params: [], signName: '存证云' },
      { phoneNumber: '+8613900000001', templateId: TEMPLATES.kycRejected, params: [], signName: '存证云' },
    ]);
  });

  it('fails with a wrong secret key: the sandbox recomputes the signature', async () => {
    const before = sandbox.sent.length;
    const e = await refusal(
      new TencentSmsProvider(config({ secretKey: `${SECRET_KEY}x` })).send('13900000002', {
        kind: 'code',
        purpose: 'register',
        code: '123456',
      }),
    );
    expect(e.code).toBe('AuthFailure.SignatureFailure');
    expect(e.message).not.toContain('123456');
    expect(e.message).not.toContain(SECRET_KEY);
    expect(sandbox.sent.length).toBe(before);
  });

  it("answers Tencent's error codes", async () => {
    const code = { kind: 'code', purpose: 'reset', code: '654321' } as const;
    expect(
      (await refusal(new TencentSmsProvider(config({ secretId: 'AKIDunknown' })).send('13900000003', code)))
        .code,
    ).toBe('AuthFailure.SecretIdNotFound');
    expect(
      (
        await refusal(
          new TencentSmsProvider(config({ templates: { ...TEMPLATES, code: '999' } })).send(
            '13900000003',
            code,
          ),
        )
      ).code,
    ).toBe('FailedOperation.TemplateIncorrectOrUnapproved');
    expect(
      (await refusal(new TencentSmsProvider(config({ signName: '别家' })).send('13900000003', code))).code,
    ).toBe('FailedOperation.SignatureIncorrectOrUnapproved');
    const limited = await refusal(new TencentSmsProvider(config()).send('13900009999', code));
    expect([limited.code, limited.limited]).toEqual(['LimitExceeded.PhoneNumberDailyLimit', true]);
  });

  it('needs every TENCENT_SMS_* setting when SMS_PROVIDER=tencent', () => {
    expect(() => loadPlatformConfig({ SMS_PROVIDER: 'tencent', TENCENT_SMS_SECRET_ID: 'x' })).toThrow(
      ConfigError,
    );
    expect(() => loadPlatformConfig({ SMS_PROVIDER: 'tencent' })).toThrow(/TENCENT_SMS_SECRET_KEY/);
    expect(loadPlatformConfig({}).sms.provider).toBe('sandbox');
  });
});

describe('the platform with SMS_PROVIDER=tencent', () => {
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-sms-tencent-'));
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await fsp.rm(dataDir, { recursive: true, force: true });
  });
  async function platform(secretKey: string, dir: string) {
    const app = await buildPlatform(
      testConfig(dir, undefined, {
        SMS_PROVIDER: 'tencent',
        TENCENT_SMS_SECRET_ID: SECRET_ID,
        TENCENT_SMS_SECRET_KEY: secretKey,
        TENCENT_SMS_SDK_APP_ID: '1400000001',
        TENCENT_SMS_SIGN_NAME: '存证云',
        TENCENT_SMS_TEMPLATE_CODE: TEMPLATES.code,
        TENCENT_SMS_TEMPLATE_KYC_APPROVED: TEMPLATES.kycApproved,
        TENCENT_SMS_TEMPLATE_KYC_REJECTED: TEMPLATES.kycRejected,
        TENCENT_SMS_ENDPOINT: sandbox.endpoint,
      }),
      { logger: false },
    );
    apps.push(app);
    return app;
  }
  async function captcha(app: FastifyInstance) {
    const img = await post<{ key: string }>(app, AccountPaths.imgCode);
    const code = (await get<{ code: string }>(app, '/api/__test/captcha', { key: img.data.key })).data.code;
    return { imgKey: img.data.key, imgCode: code };
  }

  it('sends the register code through Tencent and the code registers; a refused send leaves no usable code', async () => {
    const app = await platform(SECRET_KEY, path.join(dataDir, 'good'));
    const mobile = '13900000011';
    const sent = await post(app, AccountPaths.sendSms, { mobile, ...(await captcha(app)) });
    expect([sent.code, sent.msg]).toEqual([200, AccountMsg.smsSent]);
    const msg = sandbox.sent.findLast((s) => s.phoneNumber === `+86${mobile}`);
    expect(msg?.templateId).toBe(TEMPLATES.code);
    const reg = await post(app, AccountPaths.register, {
      mobile,
      password: 'abc12345',
      smsCode: msg!.params[0],
    });
    expect(reg.code).toBe(200);
    // no outbox: the sandbox outbox is only the sandbox provider's
    await expect(fsp.stat(path.join(dataDir, 'good', 'outbox', 'sms.log'))).rejects.toThrow();

    const bad = await platform('wrong-secret-key', path.join(dataDir, 'bad'));
    const other = '13900000012';
    const refused = await post(bad, AccountPaths.sendSms, { mobile: other, ...(await captcha(bad)) });
    expect([refused.code, refused.msg]).toEqual([500, AccountMsg.smsSendFailed]);
    const codes = await bad.pdb.db
      .selectFrom('sms_codes')
      .select(['code', 'consumed'])
      .where('mobile', '=', other)
      .execute();
    expect(codes).toHaveLength(1);
    expect(codes[0]!.consumed).toBe(1);
    const tryIt = await post(bad, AccountPaths.register, {
      mobile: other,
      password: 'abc12345',
      smsCode: codes[0]!.code,
    });
    expect(tryIt).toMatchObject({ code: 400, msg: Msg.smsCodeInvalid });
  });
});
