/**
 * The providers' asynchronous notifications (contract `BillingNotifyPaths`; docs/decisions/018-billing.md), public
 * URLs of the gateway proxied here unchanged:
 * - `POST /api/notify/alipay` (form-encoded `trade_status_sync`): RSA2 signature checked with the SDK's
 *   `checkNotifySignV2`, answered with the literal `success` or `fail` (Alipay retries until `success`);
 * - `POST /api/notify/wechat` (JSON, API v3): verified from the raw bytes (signature over timestamp, nonce and body,
 *   ±300 s, AES-256-GCM tag; ./wechatpay/notify.ts), answered 204, or `{code:'FAIL'}` with 4xx/5xx.
 * This plugin is encapsulated: its content-type parsers keep bodies as raw bytes for these two routes only. Every
 * notification is stored raw with its verdict; a verified one is applied exactly once (apply.ts). Accepted answers
 * (`success` / 204): applied, duplicate, after-close (flagged) and not-paid; the others are refused so the
 * provider's retry (or finance) can follow up.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BillingNotifyPaths, type NotifyVerdict } from '../../contract/billing.ts';
import { alipayState } from './alipay-pay.ts';
import { applyTrade, recordNotification, type ReceivedNotification } from './apply.ts';
import { yuanToFen } from './money.ts';
import type { PaymentProvider, ProviderTrade } from './providers.ts';
import { wechatState } from './wechat-pay.ts';
import { notifyFailureAnswer, notifySuccessAnswer } from './wechatpay/notify.ts';
import { WECHATPAY_HEADERS } from './wechatpay/v3.ts';

/** Largest notification body accepted, bytes. */
const MAX_NOTIFY_BYTES = 64 * 1024;
/** Verdicts after which the provider may stop retrying. */
const ACCEPTED: ReadonlySet<NotifyVerdict> = new Set(['applied', 'duplicate', 'after-close', 'not-paid']);

/** Applies a verified trade and stores the notification; a database failure is stored as 'error' when possible. */
async function settle(
  app: FastifyInstance,
  provider: PaymentProvider,
  n: ReceivedNotification,
  trade: ProviderTrade,
): Promise<NotifyVerdict> {
  try {
    return counted(app, n, (await applyTrade(app.pdb, n.orderNo, provider, trade, n)).verdict);
  } catch (err) {
    app.log.error({ err, orderNo: n.orderNo }, 'payment notification could not be applied');
    await recordNotification(app.pdb.db, n, 'error', String(err)).catch(() => undefined);
    return counted(app, n, 'error');
  }
}

/** `verdict`, counted in the payment-notification metric (core/metrics.ts). */
function counted(app: FastifyInstance, n: ReceivedNotification, verdict: NotifyVerdict): NotifyVerdict {
  app.metrics.paymentNotification(n.provider, verdict);
  return verdict;
}

/** Registers the two notification routes (needs `app.billing`). */
export async function notifyRoutes(app: FastifyInstance): Promise<void> {
  const types = ['application/json', 'application/x-www-form-urlencoded'];
  for (const t of types) if (app.hasContentTypeParser(t)) app.removeContentTypeParser(t);
  app.addContentTypeParser(types, { parseAs: 'buffer', bodyLimit: MAX_NOTIFY_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  const rawOf = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

  app.post(BillingNotifyPaths.alipay, async (request, reply) => {
    const raw = rawOf(request.body).toString('utf8');
    const params = Object.fromEntries(new URLSearchParams(raw));
    const n: ReceivedNotification = {
      provider: 'alipay',
      orderNo: params.out_trade_no ?? '',
      notifyId: params.notify_id ?? '',
      rawBody: raw,
      headers: '{}',
    };
    const answer = (ok: boolean) =>
      reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .send(ok ? 'success' : 'fail');
    const { alipay } = app.billing;
    if (!params.sign || !alipay.verifyNotification(params)) {
      await recordNotification(app.pdb.db, n, 'bad-signature', 'RSA2 signature does not verify');
      counted(app, n, 'bad-signature');
      return answer(false);
    }
    const trade: ProviderTrade = {
      state: alipayState(params.trade_status ?? ''),
      tradeNo: params.trade_no ?? '',
      amountFen: yuanToFen(params.total_amount ?? ''),
      currency: params.trans_currency || 'CNY',
      appId: params.app_id || '(none)',
      merchant: params.seller_id ?? '',
    };
    return answer(ACCEPTED.has(await settle(app, alipay, n, trade)));
  });

  app.post(BillingNotifyPaths.wechat, async (request, reply: FastifyReply) => {
    const raw = rawOf(request.body);
    const signing = Object.fromEntries(
      Object.values(WECHATPAY_HEADERS).map((h) => [h, request.headers[h]] as const),
    );
    const n: ReceivedNotification = {
      provider: 'wechat',
      orderNo: '',
      notifyId: '',
      rawBody: raw.toString('utf8'),
      headers: JSON.stringify(signing),
    };
    const send = (a: ReturnType<typeof notifySuccessAnswer>) =>
      reply
        .code(a.status)
        .headers(a.headers)
        .send(a.body === '' ? undefined : a.body);
    const { wechat } = app.billing;
    const v = wechat.verifyNotification(request.headers, raw);
    if (!v.ok) {
      const verdict = v.reason === 'unknown-serial' ? 'bad-signature' : v.reason;
      await recordNotification(app.pdb.db, n, verdict, v.detail);
      counted(app, n, verdict);
      return send(notifyFailureAnswer(v.reason));
    }
    const tx = v.transaction;
    const trade: ProviderTrade = {
      state: wechatState(tx.trade_state),
      tradeNo: tx.transaction_id,
      amountFen: tx.amount.total,
      currency: tx.amount.currency,
      appId: tx.appid,
      merchant: tx.mchid,
    };
    const verdict = await settle(app, wechat, { ...n, orderNo: tx.out_trade_no, notifyId: v.id }, trade);
    if (ACCEPTED.has(verdict)) return send(notifySuccessAnswer());
    return send(notifyFailureAnswer(undefined, verdict, verdict === 'error' ? 500 : 400));
  });
}
