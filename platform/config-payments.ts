/**
 * Alipay (face verification and page pay; docs/decisions/010-kyc-foundations.md, 018-billing.md) and the points'
 * price and order timeout (spec 02 §9): their variables, composed into platform/config.ts.
 */
import { BillingNotifyPaths } from '../contract/billing.ts';
import { envGroup, envVar, type EnvValues } from '../lib/config-schema.ts';
import { integer, oneOf, text, url } from '../lib/config-types.ts';
import type { ProxyEnv } from '../lib/outbound-proxy.ts';

/** Alipay's production gateway (OpenAPI 2.0), ALIPAY_GATEWAY's default. */
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

/**
 * The real Alipay's client settings (what platform/kyc/alipay-face.ts `AlipayClientConfig` takes; declared here so
 * the configuration loads no SDK).
 */
export interface AlipaySettings {
  appId: string;
  privateKey: string;
  alipayPublicKey: string;
  gateway: string;
  keyType: 'PKCS1' | 'PKCS8';
  proxy: ProxyEnv | null;
}

/** The Alipay keys, all or none. */
const ALIPAY_KEYS = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const;

/** Alipay and the billing settings. */
export const PaymentVars = envGroup({
  id: 'payments',
  title: 'Alipay and billing',
  summary:
    'Real Alipay (face verification and page pay) when ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY are all set; none set: the loopback sandbox. The price of a point and how long an order waits for payment.',
  vars: {
    ALIPAY_APP_ID: envVar(text(), { description: "the application's AppID on the Alipay open platform" }),
    ALIPAY_PRIVATE_KEY: envVar(text({ raw: true }), {
      description: "the application's RSA private key (PEM, or the bare base64 the console shows)",
      secret: true,
    }),
    ALIPAY_PUBLIC_KEY: envVar(text({ raw: true }), {
      description: "Alipay's RSA public key (PEM or bare base64); every response is verified with it",
      secret: true,
    }),
    ALIPAY_KEY_TYPE: envVar(oneOf(['PKCS1', 'PKCS8'], { default: 'PKCS8' }), {
      description: "the private key's format",
    }),
    ALIPAY_GATEWAY: envVar(url({ default: ALIPAY_GATEWAY }), { description: 'the OpenAPI gateway' }),
    ALIPAY_SELLER_ID: envVar(text(), {
      description:
        "the merchant's PID (2088…) notifications must name; unset: not checked (sandbox: its own)",
    }),
    ALIPAY_NOTIFY_URL: envVar(url(), {
      description: 'where Alipay posts payment notifications',
      defaultText: '${PUBLIC_URL}/api/notify/alipay',
    }),
    POINT_PRICE_FEN: envVar(integer({ min: 1, max: 1_000_000, default: 100 }), {
      description: 'price of one point, fen (100 = ¥1)',
    }),
    ORDER_TIMEOUT_MINUTES: envVar(integer({ min: 1, max: 24 * 60, default: 30 }), {
      description: 'an unpaid order expires and is closed at the provider after this many minutes',
    }),
  },
  checks: [
    {
      vars: ALIPAY_KEYS,
      problems: (e) => {
        const set = ALIPAY_KEYS.filter((k) => e[k] !== undefined).length;
        return set === 0 || set === ALIPAY_KEYS.length
          ? []
          : [
              'ALIPAY_APP_ID: set all of ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY or none (sandbox)',
            ];
      },
    },
  ],
});

type PaymentValues = EnvValues<typeof PaymentVars.vars>;

/** The real Alipay's client settings, or null for the sandbox; `proxy`: the outbound proxy. */
export function alipayOf(e: PaymentValues, proxy: ProxyEnv | null): AlipaySettings | null {
  if (!e.ALIPAY_APP_ID || !e.ALIPAY_PRIVATE_KEY || !e.ALIPAY_PUBLIC_KEY) return null;
  return {
    appId: e.ALIPAY_APP_ID,
    privateKey: e.ALIPAY_PRIVATE_KEY,
    alipayPublicKey: e.ALIPAY_PUBLIC_KEY,
    gateway: e.ALIPAY_GATEWAY,
    keyType: e.ALIPAY_KEY_TYPE,
    proxy,
  };
}

/** Billing settings. Money in fen, durations in minutes. */
export interface BillingConfig {
  /** POINT_PRICE_FEN (default 100 = ¥1 a point): the price of one point, fen. */
  pointPriceFen: number;
  /** ORDER_TIMEOUT_MINUTES (default 30): an unpaid order expires and is closed at the provider after it. */
  orderTimeoutMinutes: number;
  /** ALIPAY_SELLER_ID: the merchant's PID (2088…); notifications must name it. '' → not checked (sandbox: its own). */
  alipaySellerId: string;
  /** ALIPAY_NOTIFY_URL (default `${PUBLIC_URL}/api/notify/alipay`): Alipay's asynchronous notification URL. */
  alipayNotifyUrl: string;
  /** WECHATPAY_NOTIFY_URL (default `${PUBLIC_URL}/api/notify/wechat`): https and reachable in production. */
  wechatNotifyUrl: string;
}

/** The billing settings; `publicUrl` (no trailing slash) is the notify URLs' default origin. */
export function billingOf(
  e: PaymentValues & { WECHATPAY_NOTIFY_URL: string | undefined },
  publicUrl: string,
): BillingConfig {
  return {
    pointPriceFen: e.POINT_PRICE_FEN,
    orderTimeoutMinutes: e.ORDER_TIMEOUT_MINUTES,
    alipaySellerId: e.ALIPAY_SELLER_ID ?? '',
    alipayNotifyUrl: e.ALIPAY_NOTIFY_URL ?? `${publicUrl}${BillingNotifyPaths.alipay}`,
    wechatNotifyUrl: e.WECHATPAY_NOTIFY_URL ?? `${publicUrl}${BillingNotifyPaths.wechat}`,
  };
}
