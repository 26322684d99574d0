/**
 * Sandbox WeChat Pay gateway: the embedded default's stand-in for api.mch.weixin.qq.com, on loopback. It speaks API
 * v3 as the real one does for the calls the payments area makes — Native下单, 商户订单号查询订单, 关闭订单 — verifying
 * the Authorization header of every request (签名生成: merchant's RSA signature over method, URL, timestamp, nonce and
 * body; timestamp within ±300 s; else 401 SIGN_ERROR) and signing every answer with its own key (签名验证:
 * Wechatpay-Timestamp/Nonce/Signature/Serial). A paid order's notification (支付通知) is encrypted with the APIv3 key,
 * signed, and POSTed to its notify_url with bounded retries (./sandbox-notify.ts). The code_url is an http URL of
 * the sandbox's cashier page (./sandbox-pages.ts) so a tester can open it. Keys: ./sandbox-keys.ts; orders:
 * ./sandbox-store.ts.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import formbody from '@fastify/formbody';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { z } from 'zod';
import { OUT_TRADE_NO_RE, type WechatPayConfig } from './client.ts';
import { cashierRoutes } from './sandbox-pages.ts';
import {
  loadOrCreateWechatPaySandboxKeys,
  sandboxClientConfig,
  type WechatPaySandboxKeys,
} from './sandbox-keys.ts';
import { NotificationDispatcher, transactionJson, type NotificationOptions } from './sandbox-notify.ts';
import {
  SANDBOX_STATE_DIR,
  SANDBOX_STATE_FILE,
  SandboxOrderStore,
  type SandboxOrder,
} from './sandbox-store.ts';
import {
  MAX_CLOCK_SKEW_SECONDS,
  parseAuthorization,
  parseRfc3339,
  randomAlnum,
  signedMessage,
  signV3,
  TRADE_STATES,
  verifyV3,
} from './v3.ts';

/** Default delays before each notification attempt, ms: three tries (the real provider spreads ~15 over 24 h). */
export const DEFAULT_NOTIFY_RETRY_DELAYS_MS = [0, 1000, 3000] as const;
/**
 * After a restart, resumed deliveries wait this long before their first attempt, ms: in the embedded default the
 * sandbox starts with the platform, before the gateway that serves the notify URL listens.
 */
export const DEFAULT_RESUME_DELAY_MS = 5000;
/** After a restart, unacknowledged notifications of orders paid within this window are delivered again, ms. */
const RESUME_WINDOW_MS = (24 * 60 + 4) * 60_000;

/** Options of {@link wechatPaySandboxPlugin}. */
export interface WechatPaySandboxPluginOptions {
  keys: WechatPaySandboxKeys;
  store: SandboxOrderStore;
  dispatcher: NotificationDispatcher;
  /** The sandbox's origin as the payer's browser reaches it: code_url is `${cashierOrigin()}/pay/<id>`. */
  cashierOrigin: () => string;
  /** Also register `POST /__test/notify/:outTradeNo` (see {@link startWechatPaySandbox}). */
  testHooks?: boolean;
  /** The clock, ms since the epoch. */
  now: () => number;
}

/** A v3 error answer (HTTP status, then `{code, message}`). */
type V3Error = readonly [number, string, string];
const E = {
  sign: [401, 'SIGN_ERROR', '签名错误'],
  param: (m: string): V3Error => [400, 'PARAM_ERROR', m],
  appid: [400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配'],
  notExist: [404, 'ORDER_NOT_EXIST', '订单不存在'],
  paid: [400, 'ORDERPAID', '该订单已支付'],
  closed: [400, 'ORDER_CLOSED', '订单已关闭'],
  payError: [403, 'TRADE_ERROR', '订单支付失败，请使用新的商户订单号下单'],
  used: [403, 'OUT_TRADE_NO_USED', '商户订单号重复'],
} as const satisfies Record<string, V3Error | ((m: string) => V3Error)>;

const prepaySchema = z.object({
  appid: z.string().min(1),
  mchid: z.string().min(1),
  description: z.string().trim().min(1).max(127),
  out_trade_no: z.string().regex(OUT_TRADE_NO_RE),
  time_expire: z
    .string()
    .refine((v) => !Number.isNaN(parseRfc3339(v)))
    .optional(),
  attach: z.string().max(128).optional(),
  notify_url: z.url({ protocol: /^https?$/ }).max(256),
  amount: z.object({ total: z.number().int().min(1), currency: z.literal('CNY').default('CNY') }),
});
/** What must match for a repeated Native下单 with the same out_trade_no to be "the same order". */
const SAME_ORDER_FIELDS = ['appid', 'amountFen', 'currency', 'description'] as const;
const mchidBody = z.object({ mchid: z.string().min(1) });

/**
 * The sandbox's routes (mountable under any prefix only if `cashierOrigin` includes it):
 * `POST /v3/pay/transactions/native`, `GET /v3/pay/transactions/out-trade-no/:no?mchid=`,
 * `POST /v3/pay/transactions/out-trade-no/:no/close`, the cashier `GET|POST /pay/:prId`, and with `testHooks`
 * `POST /__test/notify/:outTradeNo`.
 */
export const wechatPaySandboxPlugin: FastifyPluginAsync<WechatPaySandboxPluginOptions> = async (
  app,
  opts,
) => {
  const { keys, store, dispatcher, now } = opts;
  await app.register(formbody);
  // v3 signs the exact body: keep it as text and parse it after the signature check.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  function send(reply: FastifyReply, status: number, payload?: object) {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timestamp = String(Math.floor(now() / 1000));
    const nonce = randomAlnum(32);
    reply
      .code(status)
      .header('request-id', randomBytes(16).toString('hex'))
      .header('wechatpay-timestamp', timestamp)
      .header('wechatpay-nonce', nonce)
      .header('wechatpay-signature', signV3(signedMessage(timestamp, nonce, body), keys.platformPrivateKey))
      .header('wechatpay-serial', keys.platformSerialNo);
    return body === '' ? reply.send() : reply.type('application/json; charset=utf-8').send(body);
  }
  const fail = (reply: FastifyReply, [status, code, message]: V3Error) =>
    send(reply, status, { code, message });

  /** The Authorization check of every v3 call (签名生成); null when it passes. */
  function authError(request: FastifyRequest): V3Error | null {
    const auth = parseAuthorization(request.headers.authorization);
    if (!auth || auth.mchid !== keys.mchid || auth.serial_no !== keys.merchantSerialNo) return E.sign;
    if (!/^\d{1,12}$/.test(auth.timestamp)) return E.sign;
    if (Math.abs(Math.floor(now() / 1000) - Number(auth.timestamp)) > MAX_CLOCK_SKEW_SECONDS) return E.sign;
    const body = typeof request.body === 'string' ? request.body : '';
    const message = signedMessage(request.method, request.url, auth.timestamp, auth.nonce_str, body);
    return verifyV3(message, auth.signature, keys.merchantPublicKey) ? null : E.sign;
  }

  /** The JSON body of a signed call, checked with `schema`; a V3Error when it does not fit. */
  function jsonBody<T>(request: FastifyRequest, schema: z.ZodType<T>): T | V3Error {
    let value: unknown;
    try {
      value = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return E.param('请求体不是合法的JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return E.param(`参数错误：${issue?.path.join('.') || 'body'}`);
    }
    return parsed.data;
  }
  const isError = (v: unknown): v is V3Error => Array.isArray(v);

  await app.register(async (v3) => {
    v3.addHook('preHandler', async (request, reply) => {
      const error = authError(request);
      if (error) return fail(reply, error);
    });

    v3.post('/v3/pay/transactions/native', async (request, reply) => {
      const input = jsonBody(request, prepaySchema);
      if (isError(input)) return fail(reply, input);
      if (input.mchid !== keys.mchid) return fail(reply, E.param('mchid与请求头中的商户号不一致'));
      if (input.appid !== keys.appid) return fail(reply, E.appid);
      const fields = {
        mchid: input.mchid,
        appid: input.appid,
        outTradeNo: input.out_trade_no,
        description: input.description,
        amountFen: input.amount.total,
        currency: input.amount.currency,
        notifyUrl: input.notify_url,
        ...(input.attach !== undefined ? { attach: input.attach } : {}),
        ...(input.time_expire !== undefined ? { timeExpire: parseRfc3339(input.time_expire) } : {}),
      };
      let order = store.get(input.mchid, input.out_trade_no);
      if (order) {
        // The same order again (amount, currency, description, AppID) returns its code_url; time_expire, attach and
        // notify_url of the first call stay.
        const same = SAME_ORDER_FIELDS.every((k) => order![k] === fields[k]);
        if (order.tradeState === 'SUCCESS') return fail(reply, E.paid);
        if (order.tradeState === 'CLOSED') return fail(reply, E.closed);
        if (order.tradeState === 'PAYERROR') return fail(reply, E.payError);
        if (!same) return fail(reply, E.used);
      } else {
        order = {
          ...fields,
          prId: randomBytes(16).toString('hex'),
          tradeState: 'NOTPAY',
          createdAt: now(),
          notify: { attempts: [], acknowledged: false },
        };
        await store.add(order);
      }
      return send(reply, 200, { code_url: `${opts.cashierOrigin()}/pay/${order.prId}` });
    });

    v3.get<{ Params: { no: string }; Querystring: { mchid?: string } }>(
      '/v3/pay/transactions/out-trade-no/:no',
      async (request, reply) => {
        const mchid = request.query.mchid;
        if (!mchid) return fail(reply, E.param('缺少参数：mchid'));
        if (mchid !== keys.mchid) return fail(reply, E.param('mchid与请求头中的商户号不一致'));
        const order = store.get(mchid, request.params.no);
        if (!order) return fail(reply, E.notExist);
        return send(reply, 200, transactionJson(order, now()));
      },
    );

    v3.post<{ Params: { no: string } }>(
      '/v3/pay/transactions/out-trade-no/:no/close',
      async (request, reply) => {
        const input = jsonBody(request, mchidBody);
        if (isError(input)) return fail(reply, input);
        if (input.mchid !== keys.mchid) return fail(reply, E.param('mchid与请求头中的商户号不一致'));
        const order = store.get(input.mchid, request.params.no);
        if (!order) return fail(reply, E.notExist);
        const outcome = await store.update(order, (o) => {
          if (o.tradeState === 'SUCCESS') return 'paid';
          if (o.tradeState !== 'CLOSED') {
            o.tradeState = 'CLOSED';
            o.settledAt = now();
          }
          return 'closed';
        });
        return outcome === 'paid' ? fail(reply, E.paid) : send(reply, 204);
      },
    );
  });

  cashierRoutes(app, { store, now, onPaid: (o) => dispatcher.dispatch(o) });

  if (opts.testHooks) {
    const hookBody = z.object({
      tamper: z.enum(['tag', 'signature', 'stale', 'serial']).optional(),
      amountFen: z.number().int().nonnegative().optional(),
      tradeState: z.enum(TRADE_STATES).optional(),
      url: z.url().optional(),
    });
    app.post<{ Params: { no: string } }>('/__test/notify/:no', async (request, reply) => {
      const order = store.get(keys.mchid, request.params.no);
      if (!order) return reply.code(404).send({ code: 'ORDER_NOT_EXIST' });
      const parsed = request.body ? jsonBody(request, hookBody) : {};
      if (isError(parsed)) return reply.code(400).send({ code: 'PARAM_ERROR' });
      const { url, ...options } = parsed;
      const { status, notification } = await dispatcher.sendOnce(order, options, url);
      return reply.send({ status, id: notification.id });
    });
  }
};

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
    sendNotification: (outTradeNo, options, target) => {
      const o = order(outTradeNo);
      if (!o) throw new Error(`sandbox: no order ${outTradeNo}`);
      return dispatcher.sendOnce(o, options, target);
    },
    deliveriesIdle: () => dispatcher.idle(),
    close: () => app.close(),
  };
}
