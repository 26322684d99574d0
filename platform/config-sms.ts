/**
 * The SMS part of the platform configuration (SMS_PROVIDER, SMS_MAX_*, TENCENT_SMS_*;
 * docs/decisions/025-secrets-sms.md), parsed by platform/config.ts, which re-exports these types.
 */
import type { ProxyEnv } from './core/outbound-proxy.ts';
import { ConfigError } from './config-error.ts';

/** Tencent Cloud SMS's public endpoint (the SDK's default host). */
export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com';

/** The SMS variables as platform/config.ts's schema parsed them. */
export interface SmsEnv {
  APP_ENV: string;
  SMS_PROVIDER: 'sandbox' | 'tencent';
  SMS_MAX_PER_MOBILE_HOUR: number;
  SMS_MAX_PER_MOBILE_DAY: number;
  SMS_MAX_PER_IP_HOUR: number;
  TENCENT_SMS_SECRET_ID?: string | undefined;
  TENCENT_SMS_SECRET_KEY?: string | undefined;
  TENCENT_SMS_SDK_APP_ID?: string | undefined;
  TENCENT_SMS_SIGN_NAME?: string | undefined;
  TENCENT_SMS_REGION: string;
  TENCENT_SMS_TEMPLATE_CODE?: string | undefined;
  TENCENT_SMS_TEMPLATE_KYC_APPROVED?: string | undefined;
  TENCENT_SMS_TEMPLATE_KYC_REJECTED?: string | undefined;
  TENCENT_SMS_ENDPOINT: string;
}

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
  /** Outbound proxy (core/outbound-proxy.ts); default: HTTPS_PROXY/NO_PROXY of the environment; null: none. */
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

/** SMS_PROVIDER and TENCENT_SMS_* → the SMS config. @throws ConfigError when `tencent` lacks a setting */
export function smsConfig(e: SmsEnv): SmsConfig {
  let tencent: TencentSmsConfig | null = null;
  if (e.SMS_PROVIDER === 'tencent') {
    const need = {
      TENCENT_SMS_SECRET_ID: e.TENCENT_SMS_SECRET_ID,
      TENCENT_SMS_SECRET_KEY: e.TENCENT_SMS_SECRET_KEY,
      TENCENT_SMS_SDK_APP_ID: e.TENCENT_SMS_SDK_APP_ID,
      TENCENT_SMS_SIGN_NAME: e.TENCENT_SMS_SIGN_NAME,
      TENCENT_SMS_TEMPLATE_CODE: e.TENCENT_SMS_TEMPLATE_CODE,
      TENCENT_SMS_TEMPLATE_KYC_APPROVED: e.TENCENT_SMS_TEMPLATE_KYC_APPROVED,
      TENCENT_SMS_TEMPLATE_KYC_REJECTED: e.TENCENT_SMS_TEMPLATE_KYC_REJECTED,
    };
    const missing = Object.entries(need).filter(([, v]) => !v);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid platform configuration: SMS_PROVIDER=tencent needs ${missing.map(([k]) => k).join(', ')}`,
      );
    }
    tencent = {
      secretId: need.TENCENT_SMS_SECRET_ID!,
      secretKey: need.TENCENT_SMS_SECRET_KEY!,
      sdkAppId: need.TENCENT_SMS_SDK_APP_ID!,
      signName: need.TENCENT_SMS_SIGN_NAME!,
      region: e.TENCENT_SMS_REGION,
      templates: {
        code: need.TENCENT_SMS_TEMPLATE_CODE!,
        kycApproved: need.TENCENT_SMS_TEMPLATE_KYC_APPROVED!,
        kycRejected: need.TENCENT_SMS_TEMPLATE_KYC_REJECTED!,
      },
      endpoint: e.TENCENT_SMS_ENDPOINT,
    };
  }
  return {
    provider: e.SMS_PROVIDER,
    tencent,
    maxPerMobileHour: e.SMS_MAX_PER_MOBILE_HOUR,
    maxPerMobileDay: e.SMS_MAX_PER_MOBILE_DAY,
    maxPerIpHour: e.SMS_MAX_PER_IP_HOUR,
    logCodes: e.APP_ENV !== 'production',
  };
}
