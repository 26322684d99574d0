/**
 * Sandbox WeChat Pay gateway: the embedded default's stand-in for api.mch.weixin.qq.com, on loopback. It speaks API
 * v3 as the real one does for the calls the payments area makes — Native下单, 商户订单号查询订单, 关闭订单 — verifying
 * the Authorization header of every request (签名生成: merchant's RSA signature over method, URL, timestamp, nonce and
 * body; timestamp within ±300 s; else 401 SIGN_ERROR) and signing every answer with its own key (签名验证:
 * Wechatpay-Timestamp/Nonce/Signature/Serial). A paid order's notification (支付通知) is encrypted with the APIv3 key,
 * signed, and POSTed to its notify_url with bounded retries (./sandbox-notify.ts). The code_url is an http URL of
 * the sandbox's cashier page (./sandbox-pages.ts) so a tester can open it. Routes: ./sandbox-api.ts; keys:
 * ./sandbox-keys.ts; orders: ./sandbox-store.ts.
 */
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { WechatPayConfig } from './client.ts';
import { wechatPaySandboxPlugin } from './sandbox-api.ts';
import {
  loadOrCreateWechatPaySandboxKeys,
  sandboxClientConfig,
  type WechatPaySandboxKeys,
} from './sandbox-keys.ts';
import {
  buildNotification,
  NotificationDispatcher,
  type BuiltNotification,
  type NotificationOptions,
} from './sandbox-notify.ts';
import {
  SANDBOX_STATE_DIR,
  SANDBOX_STATE_FILE,
  SandboxOrderStore,
  type SandboxOrder,
} from './sandbox-store.ts';

export { wechatPaySandboxPlugin, type WechatPaySandboxPluginOptions } from './sandbox-api.ts';

/** Default delays before each notification attempt, ms: three tries (the real provider spreads ~15 over 24 h). */
export const DEFAULT_NOTIFY_RETRY_DELAYS_MS = [0, 1000, 3000] as const;
/**
 * After a restart, resumed deliveries wait this long before their first attempt, ms: in the embedded default the
 * sandbox starts with the platform, before the gateway that serves the notify URL listens.
 */
export const DEFAULT_RESUME_DELAY_MS = 5000;
/** After a restart, unacknowledged notifications of orders paid within this window are delivered again, ms. */
const RESUME_WINDOW_MS = (24 * 60 + 4) * 60_000;

/** Options of {@link startWechatPaySandbox}. */
export interface StartWechatPaySandboxOptions {
  /** Data directory: keys under `keys/wechatpay-sandbox/`, orders under `sandbox/wechatpay/`. */
  dataDir: string;
  /** Address to listen on (default 127.0.0.1: the sandbox is for loopback). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Keep orders only in memory instead of the state file (default false). */
  memoryOnly?: boolean;
  /** Delays before each notification attempt, ms (default {@link DEFAULT_NOTIFY_RETRY_DELAYS_MS}). */
  notifyRetryDelaysMs?: readonly number[];
  /** Delay before the first attempt of a delivery resumed at start, ms (default {@link DEFAULT_RESUME_DELAY_MS}). */
  resumeDelayMs?: number;
  /**
   * Register `POST /__test/notify/:outTradeNo` (JSON `{tamper?, amountFen?, tradeState?, url?}` → `{status, id}`):
   * sends one notification of the order now, genuine or broken. Only with TEST_HOOKS: a genuine signature on any
   * amount is a forgery tool.
   */
  testHooks?: boolean;
  /** A pino logger for the sandbox's Fastify (default: none). */
  logger?: FastifyBaseLogger;
  /** The clock, ms since the epoch (tests). */
  now?: () => number;
}

/** A running sandbox. */
export interface WechatPaySandbox {
  /** Origin, e.g. http://127.0.0.1:41234: the client's base URL. */
  url: string;
  keys: WechatPaySandboxKeys;
  mchid: string;
  appid: string;
  merchantSerialNo: string;
  merchantPrivateKey: string;
  platformSerialNo: string;
  /** The WeChat Pay public key (PEM) that verifies the sandbox's signatures. */
  platformPublicKey: string;
  apiV3Key: string;
  store: SandboxOrderStore;
  app: FastifyInstance;
  /** The client config for this sandbox. */
  clientConfig(): WechatPayConfig;
  /** Test hook: the order `outTradeNo` as the sandbox holds it. */
  order(outTradeNo: string): SandboxOrder | undefined;
  /**
   * Test hook: sends one notification of the order now — genuine by default, or broken/overridden as `options`
   * say — to `url` (default its notify_url). @returns the merchant's status (null: no answer) and what was sent
   * @throws Error when the order does not exist
   */
  sendNotification(
    outTradeNo: string,
    options?: NotificationOptions,
    url?: string,
  ): ReturnType<NotificationDispatcher['sendOnce']>;
  /**
   * Test hook: the same notification as {@link WechatPaySandbox.sendNotification} would send, signed now, unsent.
   * @throws Error when the order does not exist
   */
  buildNotification(outTradeNo: string, options?: NotificationOptions): BuiltNotification;
  /** Test hook: resolves when no notification delivery is under way. */
  deliveriesIdle(): Promise<void>;
  /** Stops deliveries, then the server. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox as its own Fastify server, with keys and orders under `dataDir`; unacknowledged notifications
 * of orders paid in the last 24 h 4 min are delivered again (the real provider keeps retrying that long).
 * @throws when the keys cannot be loaded or created, the state file is unreadable, or the port cannot be bound
 */
export async function startWechatPaySandbox(opts: StartWechatPaySandboxOptions): Promise<WechatPaySandbox> {
  const now = opts.now ?? Date.now;
  const keys = await loadOrCreateWechatPaySandboxKeys(opts.dataDir);
  const store = await SandboxOrderStore.open(
    opts.memoryOnly ? null : path.join(opts.dataDir, SANDBOX_STATE_DIR, SANDBOX_STATE_FILE),
    now(),
  );
  const retryDelaysMs = opts.notifyRetryDelaysMs ?? DEFAULT_NOTIFY_RETRY_DELAYS_MS;
  const dispatcher = new NotificationDispatcher({ keys, store, retryDelaysMs, now });
  const app = Fastify(opts.logger ? { loggerInstance: opts.logger } : { logger: false });
  let url = '';
  await app.register(wechatPaySandboxPlugin, {
    keys,
    store,
    dispatcher,
    cashierOrigin: () => url,
    testHooks: opts.testHooks ?? false,
    now,
  });
  app.addHook('onClose', () => dispatcher.close());
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('sandbox: no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  for (const o of store.all()) {
    const recent = o.settledAt !== undefined && now() - o.settledAt < RESUME_WINDOW_MS;
    if (o.tradeState === 'SUCCESS' && !o.notify.acknowledged && recent) {
      dispatcher.dispatch(o, opts.resumeDelayMs ?? DEFAULT_RESUME_DELAY_MS);
    }
  }
  const order = (outTradeNo: string) => store.get(keys.mchid, outTradeNo);
  const existing = (outTradeNo: string) => {
    const o = order(outTradeNo);
    if (!o) throw new Error(`sandbox: no order ${outTradeNo}`);
    return o;
  };
  return {
    url,
    keys,
    mchid: keys.mchid,
    appid: keys.appid,
    merchantSerialNo: keys.merchantSerialNo,
    merchantPrivateKey: keys.merchantPrivateKey,
    platformSerialNo: keys.platformSerialNo,
    platformPublicKey: keys.platformPublicKey,
    apiV3Key: keys.apiV3Key,
    store,
    app,
    clientConfig: () => sandboxClientConfig(keys, url),
    order,
    sendNotification: (outTradeNo, options, target) =>
      dispatcher.sendOnce(existing(outTradeNo), options, target),
    buildNotification: (outTradeNo, options) => buildNotification(existing(outTradeNo), keys, now(), options),
    deliveriesIdle: () => dispatcher.idle(),
    close: () => app.close(),
  };
}
