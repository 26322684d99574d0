/**
 * The providers' asynchronous notifications (contract `BillingNotifyPaths`; docs/decisions/018-billing.md,
 * 058-providers-own-notifications.md): one public route, `POST /api/notify/:provider`, for every provider registered
 * in `app.billing.providers` — today's `/api/notify/alipay` and `/api/notify/wechat` among them, proxied here by the
 * gateway unchanged. The route knows no provider's wire format: the provider named by the path reads the exact bytes
 * received (`parseNotification`, its signature check included) and writes its own answer (`acknowledge`): Alipay's
 * literal `success`/`fail`, WeChat Pay's 204 or `{code:'FAIL'}`, another provider's own.
 * This plugin is encapsulated: its content-type parsers keep every body as raw bytes for this route only. Every
 * notification is stored raw with its verdict; a verified one is applied exactly once (apply.ts). Accepted verdicts
 * (the provider may stop retrying): applied, duplicate, after-close (flagged) and not-paid; the others are refused so
 * the provider's retry (or finance) can follow up. An unregistered provider's name answers 404 and is not stored.
 */
import type { FastifyInstance } from 'fastify';
import { BillingNotifyPaths, type NotifyVerdict } from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError } from '../core/errors.ts';
import { applyTrade, recordNotification, type ReceivedNotification } from './apply.ts';
import type { NotificationAnswer, PaymentProvider, ProviderTrade } from './providers.ts';

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

/** Registers the notification route (needs `app.billing`). */
export async function notifyRoutes(app: FastifyInstance): Promise<void> {
  // Every body as raw bytes, whatever its type: the signature covers the exact bytes (a provider of its own format
  // may post XML or text). The JSON and form parsers of the root are replaced inside this plugin only.
  for (const t of ['application/json', 'application/x-www-form-urlencoded'])
    if (app.hasContentTypeParser(t)) app.removeContentTypeParser(t);
  app.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'buffer', bodyLimit: MAX_NOTIFY_BYTES },
    (_req, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_NOTIFY_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { provider: string } }>(BillingNotifyPaths.route, async (request, reply) => {
    const provider = app.billing.providers.named(request.params.provider);
    if (!provider) throw new ApiError(ApiCode.NOT_FOUND, Msg.notFoundPage, 404);
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const parsed = await provider.parseNotification({ headers: request.headers, rawBody });
    const n: ReceivedNotification = {
      provider: provider.name,
      orderNo: parsed.orderNo,
      notifyId: parsed.notifyId,
      rawBody: parsed.raw.body,
      headers: parsed.raw.headers,
    };
    let verdict: NotifyVerdict;
    if (parsed.ok) {
      verdict = await settle(app, provider, n, parsed.trade);
    } else {
      verdict = parsed.verdict;
      await recordNotification(app.pdb.db, n, verdict, parsed.detail);
      counted(app, n, verdict);
    }
    const answer: NotificationAnswer = provider.acknowledge({
      parsed,
      verdict,
      accepted: parsed.ok && ACCEPTED.has(verdict),
    });
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .send(answer.body === '' ? undefined : answer.body);
  });
}
