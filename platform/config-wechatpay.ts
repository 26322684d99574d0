/**
 * The WeChat Pay part of the platform configuration (WECHATPAY_*; docs/decisions/017-wechat-pay-provider.md), parsed
 * by platform/config.ts.
 */
import { z } from 'zod';
import { WECHATPAY_API_URL, type WechatPayConfig } from './billing/wechatpay/client.ts';
import { ConfigError } from './config-error.ts';

/** The WECHATPAY_* variables as platform/config.ts's schema parsed them. */
export interface WechatPayEnv {
  WECHATPAY_MCHID?: string | undefined;
  WECHATPAY_APPID?: string | undefined;
  WECHATPAY_MERCHANT_SERIAL_NO?: string | undefined;
  WECHATPAY_MERCHANT_PRIVATE_KEY?: string | undefined;
  WECHATPAY_API_V3_KEY?: string | undefined;
  WECHATPAY_PUBLIC_KEY_ID?: string | undefined;
  WECHATPAY_PUBLIC_KEY?: string | undefined;
  WECHATPAY_PLATFORM_CERTS?: string | undefined;
  WECHATPAY_BASE_URL?: string | undefined;
}

/** WECHATPAY_* → the client config, null for the sandbox. @throws ConfigError when only some are set */
export function wechatpayConfig(e: WechatPayEnv): WechatPayConfig | null {
  let certs: Record<string, string> = {};
  try {
    certs = e.WECHATPAY_PLATFORM_CERTS?.trim()
      ? z.record(z.string(), z.string()).parse(JSON.parse(e.WECHATPAY_PLATFORM_CERTS))
      : {};
  } catch {
    throw new ConfigError(
      'Invalid platform configuration: WECHATPAY_PLATFORM_CERTS must be a JSON object {serial: PEM}',
    );
  }
  if (e.WECHATPAY_PUBLIC_KEY_ID && e.WECHATPAY_PUBLIC_KEY?.trim())
    certs[e.WECHATPAY_PUBLIC_KEY_ID] = e.WECHATPAY_PUBLIC_KEY;
  const required = [
    e.WECHATPAY_MCHID,
    e.WECHATPAY_APPID,
    e.WECHATPAY_MERCHANT_SERIAL_NO,
    e.WECHATPAY_MERCHANT_PRIVATE_KEY,
    e.WECHATPAY_API_V3_KEY,
  ];
  const set = required.filter((v) => v?.trim()).length + (Object.keys(certs).length > 0 ? 1 : 0);
  if (set === 0) return null;
  if (set !== required.length + 1) {
    throw new ConfigError(
      'Invalid platform configuration: set all of WECHATPAY_MCHID, WECHATPAY_APPID, WECHATPAY_MERCHANT_SERIAL_NO, WECHATPAY_MERCHANT_PRIVATE_KEY, WECHATPAY_API_V3_KEY and WECHATPAY_PUBLIC_KEY_ID/WECHATPAY_PUBLIC_KEY (or WECHATPAY_PLATFORM_CERTS), or none (sandbox)',
    );
  }
  return {
    mchid: e.WECHATPAY_MCHID!,
    appid: e.WECHATPAY_APPID!,
    merchantSerialNo: e.WECHATPAY_MERCHANT_SERIAL_NO!,
    merchantPrivateKey: e.WECHATPAY_MERCHANT_PRIVATE_KEY!,
    apiV3Key: e.WECHATPAY_API_V3_KEY!,
    platformCerts: certs,
    baseUrl: e.WECHATPAY_BASE_URL ?? WECHATPAY_API_URL,
  };
}
