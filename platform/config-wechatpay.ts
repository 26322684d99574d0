/**
 * The WeChat Pay part of the platform configuration (WECHATPAY_*; docs/decisions/017-wechat-pay-provider.md), composed
 * into platform/config.ts.
 */
import { z } from 'zod';
import { envGroup, envVar, type EnvValues } from '../lib/config-schema.ts';
import { text, url } from '../lib/config-types.ts';
import type { ProxyEnv } from '../lib/outbound-proxy.ts';

/** WeChat Pay's production API origin (主域名), WECHATPAY_BASE_URL's default. */
export const WECHATPAY_API_URL = 'https://api.mch.weixin.qq.com';

/**
 * The real WeChat Pay's client settings (what platform/billing/wechatpay/client.ts `WechatPayConfig` takes; declared
 * here so the configuration loads no SDK).
 */
export interface WechatPaySettings {
  mchid: string;
  appid: string;
  merchantSerialNo: string;
  merchantPrivateKey: string;
  apiV3Key: string;
  platformCerts: Readonly<Record<string, string>>;
  baseUrl: string;
  proxy: ProxyEnv | null;
}

/** WECHATPAY_PLATFORM_CERTS parsed: `{serial: PEM}`, or undefined when unset. */
const platformCerts = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      return z.record(z.string(), z.string()).parse(JSON.parse(v));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object {serial: PEM}' });
      return z.NEVER;
    }
  });

/** The merchant settings the real WeChat Pay needs, all or none. */
const REQUIRED = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_MERCHANT_SERIAL_NO',
  'WECHATPAY_MERCHANT_PRIVATE_KEY',
  'WECHATPAY_API_V3_KEY',
] as const;

/** WECHATPAY_*: all set → the real WeChat Pay Native (API v3); none → the loopback sandbox. */
export const WechatPayVars = envGroup({
  id: 'wechatpay',
  title: 'WeChat Pay',
  summary:
    'Real WeChat Pay Native (API v3) when the merchant settings and a verification key are all set; none set: the loopback sandbox.',
  vars: {
    WECHATPAY_MCHID: envVar(text(), { description: 'merchant id' }),
    WECHATPAY_APPID: envVar(text(), { description: 'the AppID bound to the merchant' }),
    WECHATPAY_MERCHANT_SERIAL_NO: envVar(text(), {
      description: "serial number of the merchant's API certificate",
    }),
    WECHATPAY_MERCHANT_PRIVATE_KEY: envVar(text({ raw: true }), {
      description: "the merchant's API private key (PEM)",
      secret: true,
    }),
    WECHATPAY_API_V3_KEY: envVar(text({ raw: true }), {
      description: 'the APIv3 key (32 bytes) that decrypts notifications',
      secret: true,
    }),
    WECHATPAY_PUBLIC_KEY_ID: envVar(text(), { description: "id of WeChat Pay's public key" }),
    WECHATPAY_PUBLIC_KEY: envVar(text({ raw: true }), {
      description: "WeChat Pay's public key (PEM), with WECHATPAY_PUBLIC_KEY_ID",
      secret: true,
    }),
    WECHATPAY_PLATFORM_CERTS: envVar(platformCerts, {
      description: 'platform certificates as JSON {"serial": "PEM"}, instead of the public key',
      secret: true,
    }),
    WECHATPAY_BASE_URL: envVar(url({ default: WECHATPAY_API_URL }), { description: 'the v3 API origin' }),
    WECHATPAY_NOTIFY_URL: envVar(url(), {
      description: 'where WeChat Pay posts payment notifications (https and reachable in production)',
      defaultText: '${PUBLIC_URL}/api/notify/wechat',
    }),
  },
  checks: [
    {
      vars: [...REQUIRED, 'WECHATPAY_PUBLIC_KEY_ID', 'WECHATPAY_PUBLIC_KEY', 'WECHATPAY_PLATFORM_CERTS'],
      problems: (e): string[] => {
        const set = REQUIRED.filter((k) => e[k] !== undefined).length + (certsOf(e) ? 1 : 0);
        return set === 0 || set === REQUIRED.length + 1
          ? []
          : [
              'WECHATPAY_*: set all of WECHATPAY_MCHID, WECHATPAY_APPID, WECHATPAY_MERCHANT_SERIAL_NO, WECHATPAY_MERCHANT_PRIVATE_KEY, WECHATPAY_API_V3_KEY and WECHATPAY_PUBLIC_KEY_ID/WECHATPAY_PUBLIC_KEY (or WECHATPAY_PLATFORM_CERTS), or none (sandbox)',
            ];
      },
    },
  ],
});

type WechatPayValues = EnvValues<typeof WechatPayVars.vars>;

/** The verification keys by serial (WECHATPAY_PLATFORM_CERTS and the public key), or null when there are none. */
function certsOf(e: {
  WECHATPAY_PLATFORM_CERTS?: Record<string, string> | undefined;
  WECHATPAY_PUBLIC_KEY_ID?: string | undefined;
  WECHATPAY_PUBLIC_KEY?: string | undefined;
}): Record<string, string> | null {
  const certs: Record<string, string> = { ...e.WECHATPAY_PLATFORM_CERTS };
  if (e.WECHATPAY_PUBLIC_KEY_ID && e.WECHATPAY_PUBLIC_KEY?.trim())
    certs[e.WECHATPAY_PUBLIC_KEY_ID] = e.WECHATPAY_PUBLIC_KEY;
  return Object.keys(certs).length > 0 ? certs : null;
}

/** The client config of the parsed WECHATPAY_* variables, null for the sandbox; `proxy`: the outbound proxy. */
export function wechatpayConfig(e: WechatPayValues, proxy: ProxyEnv | null): WechatPaySettings | null {
  const certs = certsOf(e);
  if (!certs || REQUIRED.some((k) => e[k] === undefined)) return null;
  return {
    mchid: e.WECHATPAY_MCHID!,
    appid: e.WECHATPAY_APPID!,
    merchantSerialNo: e.WECHATPAY_MERCHANT_SERIAL_NO!,
    merchantPrivateKey: e.WECHATPAY_MERCHANT_PRIVATE_KEY!,
    apiV3Key: e.WECHATPAY_API_V3_KEY!,
    platformCerts: certs,
    baseUrl: e.WECHATPAY_BASE_URL,
    proxy,
  };
}
