/**
 * The SMS part of the platform configuration (SMS_PROVIDER, SMS_MAX_*, TENCENT_SMS_*;
 * docs/decisions/025-secrets-sms.md): its variables, composed into platform/config.ts, which re-exports these types.
 */
import { envGroup, envVar, type EnvValues } from '../lib/config-schema.ts';
import { integer, oneOf, text, url } from '../lib/config-types.ts';
import type { ProxyEnv } from '../lib/outbound-proxy.ts';

/** Tencent Cloud SMS's public endpoint (the SDK's default host). */
export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com';

/** The TENCENT_SMS_* settings SMS_PROVIDER=tencent cannot do without. */
const TENCENT_REQUIRED = [
  'TENCENT_SMS_SECRET_ID',
  'TENCENT_SMS_SECRET_KEY',
  'TENCENT_SMS_SDK_APP_ID',
  'TENCENT_SMS_SIGN_NAME',
  'TENCENT_SMS_TEMPLATE_CODE',
  'TENCENT_SMS_TEMPLATE_KYC_APPROVED',
  'TENCENT_SMS_TEMPLATE_KYC_REJECTED',
] as const;

const quota = (dflt: number, description: string) =>
  envVar(integer({ min: 1, max: 1_000_000, default: dflt }), { description });
const tencent = (description: string, secret = false) =>
  envVar(text(), { description: `${description} (SMS_PROVIDER=tencent)`, ...(secret ? { secret } : {}) });

/** SMS_PROVIDER, the quotas and Tencent Cloud SMS. */
export const SmsVars = envGroup({
  id: 'sms',
  title: 'SMS',
  summary:
    'Verification codes and review results by SMS: the sandbox writes DATA_DIR/outbox/sms.log; tencent sends with Tencent Cloud SMS (every TENCENT_SMS_* below but the region and endpoint is then required).',
  vars: {
    SMS_PROVIDER: envVar(oneOf(['sandbox', 'tencent'], { default: 'sandbox' }), {
      description: 'sandbox (an outbox file) or tencent (real SMS)',
    }),
    SMS_MAX_PER_MOBILE_HOUR: quota(5, 'codes one mobile receives in an hour'),
    SMS_MAX_PER_MOBILE_DAY: quota(10, 'codes one mobile receives in 24 hours'),
    SMS_MAX_PER_IP_HOUR: quota(20, 'codes requested from one client IP in an hour'),
    TENCENT_SMS_SECRET_ID: tencent('the CAM API key id', true),
    TENCENT_SMS_SECRET_KEY: tencent('the CAM API key secret', true),
    TENCENT_SMS_SDK_APP_ID: tencent("the SMS application's SdkAppId (digits)"),
    TENCENT_SMS_SIGN_NAME: tencent("the approved signature's text, e.g. 存证云"),
    TENCENT_SMS_REGION: envVar(text({ default: 'ap-guangzhou' }), { description: 'the API region' }),
    TENCENT_SMS_TEMPLATE_CODE: tencent('approved template of register/reset codes, one variable {1}'),
    TENCENT_SMS_TEMPLATE_KYC_APPROVED: tencent('approved template of the real-name approval SMS'),
    TENCENT_SMS_TEMPLATE_KYC_REJECTED: tencent('approved template of the real-name rejection SMS'),
    TENCENT_SMS_ENDPOINT: envVar(url({ default: TENCENT_SMS_ENDPOINT }), {
      description: 'the API origin (tests: http://sms.localhost:<port>, a loopback sandbox)',
    }),
  },
  checks: [
    {
      vars: ['SMS_PROVIDER', ...TENCENT_REQUIRED],
      problems: (v) =>
        v.SMS_PROVIDER === 'tencent'
          ? TENCENT_REQUIRED.filter((k) => !v[k]).map((k) => `${k}: required when SMS_PROVIDER=tencent`)
          : [],
    },
  ],
});

/** Tencent Cloud SMS (SendSms, API 2021-01-11) settings, all from TENCENT_SMS_*. */
export interface TencentSmsConfig {
  /** TENCENT_SMS_SECRET_ID / TENCENT_SMS_SECRET_KEY: the CAM API key pair. */
  secretId: string;
  secretKey: string;
  /** TENCENT_SMS_SDK_APP_ID: the SMS application's SdkAppId (digits). */
  sdkAppId: string;
  /** TENCENT_SMS_SIGN_NAME: the approved signature's content, e.g. 存证云. */
  signName: string;
  /** TENCENT_SMS_REGION (default ap-guangzhou). */
  region: string;
  /**
   * Approved template ids: TENCENT_SMS_TEMPLATE_CODE (one variable {1}: the 6-digit code; register and reset),
   * TENCENT_SMS_TEMPLATE_KYC_APPROVED and TENCENT_SMS_TEMPLATE_KYC_REJECTED (no variables).
   */
  templates: { code: string; kycApproved: string; kycRejected: string };
  /**
   * TENCENT_SMS_ENDPOINT (default `https://sms.tencentcloudapi.com`): where the SDK sends; a `http://sms.localhost:PORT`
   * URL points it at a loopback sandbox (tests).
   */
  endpoint: string;
  /** Outbound proxy (core/outbound-proxy.ts): the process's, set by platform/config.ts; absent or null: none. */
  proxy?: ProxyEnv | null;
}

/** SMS provider and send limits. Counts per window; every window is fixed and starts at its first send. */
export interface SmsConfig {
  /** SMS_PROVIDER (default `sandbox`): `sandbox` writes `${dataDir}/outbox/sms.log`; `tencent` sends for real. */
  provider: 'sandbox' | 'tencent';
  /** Set when provider is `tencent`. */
  tencent: TencentSmsConfig | null;
  /** SMS_MAX_PER_MOBILE_HOUR (default 5): codes one mobile receives in an hour. */
  maxPerMobileHour: number;
  /** SMS_MAX_PER_MOBILE_DAY (default 10): codes one mobile receives in 24 hours. */
  maxPerMobileDay: number;
  /** SMS_MAX_PER_IP_HOUR (default 20): codes requested from one client IP in an hour. */
  maxPerIpHour: number;
  /** True when a sandbox SMS line may be logged with its code (APP_ENV development or test only). */
  logCodes: boolean;
}

/**
 * The SMS config of the parsed SMS variables. `logCodes` when APP_ENV is not production; `proxy`: the process's
 * outbound proxy for the Tencent SDK.
 */
export function smsConfig(
  e: EnvValues<typeof SmsVars.vars>,
  opts: { appEnv: string; proxy: ProxyEnv | null },
): SmsConfig {
  const tencent: TencentSmsConfig | null =
    e.SMS_PROVIDER === 'tencent'
      ? {
          secretId: e.TENCENT_SMS_SECRET_ID!,
          secretKey: e.TENCENT_SMS_SECRET_KEY!,
          sdkAppId: e.TENCENT_SMS_SDK_APP_ID!,
          signName: e.TENCENT_SMS_SIGN_NAME!,
          region: e.TENCENT_SMS_REGION,
          templates: {
            code: e.TENCENT_SMS_TEMPLATE_CODE!,
            kycApproved: e.TENCENT_SMS_TEMPLATE_KYC_APPROVED!,
            kycRejected: e.TENCENT_SMS_TEMPLATE_KYC_REJECTED!,
          },
          endpoint: e.TENCENT_SMS_ENDPOINT,
          proxy: opts.proxy,
        }
      : null;
  return {
    provider: e.SMS_PROVIDER,
    tencent,
    maxPerMobileHour: e.SMS_MAX_PER_MOBILE_HOUR,
    maxPerMobileDay: e.SMS_MAX_PER_MOBILE_DAY,
    maxPerIpHour: e.SMS_MAX_PER_IP_HOUR,
    logCodes: opts.appEnv !== 'production',
  };
}
