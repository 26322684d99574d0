/**
 * The WeChat Pay sandbox's routes (see ./sandbox.ts): the three API v3 calls with the Authorization check of every
 * request (签名生成) and signed answers (签名验证), the cashier (./sandbox-pages.ts), and the optional HTTP test hook.
 * Sources: WeChat Pay API v3 docs, Native下单, 商户订单号查询订单, 关闭订单 (request/answer fields, 错误码).
 */
import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OUT_TRADE_NO_RE } from './client.ts';
import type { WechatPaySandboxKeys } from './sandbox-keys.ts';
import { cashierRoutes } from './sandbox-pages.ts';
import { transactionJson, type NotificationDispatcher } from './sandbox-notify.ts';
import type { SandboxOrderStore } from './sandbox-store.ts';
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
