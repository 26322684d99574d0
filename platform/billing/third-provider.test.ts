/**
 * A third payment provider registered at run time, on SQLite and PostgreSQL (docs/decisions/058-providers-own-
 * notifications.md): "bank transfer confirmation", defined only here — its own JSON notification signed with an
 * HMAC-SHA256 header, its own answers (200 `OK`, 401/400 `REJECTED`) — reaches `POST /api/notify/bank-transfer`
 * without any change to the notification route. One notification delivered 5 times in a row and 5 times at once
 * credits exactly once (the others `duplicate`); a bad signature is refused, credits nothing and is stored with its
 * verdict; an unregistered name answers 404; and a pending order of its pay type is cancelled through it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { BillingNotifyPaths, BillingPaths, PayStatus } from '../../contract/billing.ts';
import {
  balances,
  demoToken,
  insertPendingRecharge,
  userIdOf,
  verdictsOf,
} from '../../tests/support/billing.ts';
import { forEachDialect, post } from '../../tests/support/platform.ts';
import type {
  IncomingNotification,
  NotificationAnswer,
  NotificationResult,
  ParsedNotification,
  PaymentProvider,
  ProviderTrade,
} from './providers.ts';

/** The bank's signature header: hex HMAC-SHA256 of the raw body with the shared secret. */
const SIGNATURE_HEADER = 'x-bank-signature';
/** The pay type of bank transfers in this test. */
const BANK_PAY_TYPE = 9;

/** What the bank posts (JSON). */
interface BankConfirmation {
  notify_id: string;
  order_no: string;
  transfer_id: string;
  amount_fen: number;
  currency: string;
  /** Unix seconds. */
  confirmed_at: number;
  status: 'confirmed' | 'returned';
}

/** The bank transfer confirmation provider: everything a provider needs, nothing of Alipay's or WeChat Pay's. */
class BankTransferProvider implements PaymentProvider {
  readonly name = 'bank-transfer';
  readonly payType = BANK_PAY_TYPE;
  readonly appId = '';
  readonly merchant = 'CZ-ACCOUNT-001';
  readonly closed = new Set<string>();
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    this.secret = secret;
  }

  /** A transfer is paid by the payer at their bank: nothing to open. */
  async start(): Promise<{ url: string }> {
    return { url: 'about:blank' };
  }

  async query(): Promise<ProviderTrade> {
    return { state: 'pending', tradeNo: '', amountFen: null, currency: 'CNY', appId: '', merchant: '' };
  }

  async close(orderNo: string): Promise<'closed'> {
    this.closed.add(orderNo);
    return 'closed';
  }

  sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('hex');
  }

  async parseNotification(input: IncomingNotification): Promise<ParsedNotification> {
    const body = input.rawBody.toString('utf8');
    const signature = input.headers[SIGNATURE_HEADER];
    const raw = { body, headers: JSON.stringify({ [SIGNATURE_HEADER]: signature }) };
    const refuse = (verdict: 'bad-signature' | 'malformed', detail: string): ParsedNotification => ({
      ok: false,
      verdict,
      detail,
      reason: verdict,
      orderNo: '',
      notifyId: '',
      raw,
    });
    const expected = Buffer.from(this.sign(body), 'hex');
    const given = typeof signature === 'string' ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return refuse('bad-signature', 'HMAC does not verify');
    let c: BankConfirmation;
    try {
      c = JSON.parse(body) as BankConfirmation;
    } catch {
      return refuse('malformed', 'not JSON');
    }
    const trade: ProviderTrade = {
      state: c.status === 'confirmed' ? 'paid' : 'closed',
      tradeNo: c.transfer_id,
      amountFen: c.amount_fen,
      currency: c.currency,
      appId: '',
      merchant: this.merchant,
    };
    return {
      ok: true,
      orderNo: c.order_no,
      amountFen: c.amount_fen,
      tradeNo: c.transfer_id,
      paidAt: c.confirmed_at,
      trade,
      notifyId: c.notify_id,
      raw,
    };
  }

  acknowledge(result: NotificationResult): NotificationAnswer {
    if (result.accepted) return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'OK' };
    const status = !result.parsed.ok && result.parsed.verdict === 'bad-signature' ? 401 : 400;
    return { status, headers: { 'content-type': 'text/plain' }, body: 'REJECTED' };
  }
}

forEachDialect('a third provider registered at run time', (h) => {
  const bank = new BankTransferProvider(randomBytes(32));
  let demoId = 0;
  let token = '';
  beforeAll(async () => {
    h.app.billing.providers.register(bank);
    demoId = await userIdOf(h.app, '13800138000');
    token = await demoToken(h.app);
  });

  /** The bank's confirmation of `orderNo`, signed (or with `signature`). */
  const confirmation = (orderNo: string, amountFen: number, signature?: string) => {
    const body = JSON.stringify({
      notify_id: `N${randomBytes(6).toString('hex')}`,
      order_no: orderNo,
      transfer_id: `T${randomBytes(6).toString('hex')}`,
      amount_fen: amountFen,
      currency: 'CNY',
      confirmed_at: Math.floor(Date.now() / 1000),
      status: 'confirmed',
    } satisfies BankConfirmation);
    return { body, signature: signature ?? bank.sign(body) };
  };
  const deliver = async (n: { body: string; signature: string }) => {
    const res = await h.app.inject({
      method: 'POST',
      url: BillingNotifyPaths.of(bank.name),
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: n.signature },
      payload: n.body,
    });
    return { status: res.statusCode, body: res.body };
  };

  it('one notification delivered 5 times in a row credits once; the other 4 are duplicates', async () => {
    const before = await balances(h.app, demoId);
    const orderNo = await insertPendingRecharge(h.app, demoId, 30, 3000, BANK_PAY_TYPE);
    const n = confirmation(orderNo, 3000);
    for (let i = 0; i < 5; i++) expect(await deliver(n)).toEqual({ status: 200, body: 'OK' });
    expect(await verdictsOf(h.app, orderNo)).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    const after = await balances(h.app, demoId);
    expect(after).toEqual({ points: before.points + 30, journal: before.points + 30 });
    const stored = await h.app.pdb.db
      .selectFrom('billing_notifications')
      .select(['provider', 'raw_body', 'notify_id'])
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      provider: 'bank-transfer',
      raw_body: n.body,
      notify_id: JSON.parse(n.body).notify_id,
    });
    const order = await h.app.pdb.db
      .selectFrom('billing_orders')
      .select(['status', 'trade_no'])
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect({ status: Number(order.status), tradeNo: order.trade_no }).toEqual({
      status: PayStatus.paid,
      tradeNo: JSON.parse(n.body).transfer_id,
    });
  });

  it('one notification delivered 5 times at once credits once', async () => {
    const before = await balances(h.app, demoId);
    const orderNo = await insertPendingRecharge(h.app, demoId, 40, 4000, BANK_PAY_TYPE);
    const n = confirmation(orderNo, 4000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(n)));
    expect(answers.every((a) => a.status === 200 && a.body === 'OK')).toBe(true);
    const verdicts = await verdictsOf(h.app, orderNo);
    expect(verdicts.filter((v) => v === 'applied')).toHaveLength(1);
    expect(verdicts.filter((v) => v === 'duplicate')).toHaveLength(4);
    expect(await balances(h.app, demoId)).toEqual({
      points: before.points + 40,
      journal: before.points + 40,
    });
  });

  it('refuses a bad signature, credits nothing and stores it with its verdict', async () => {
    const before = await balances(h.app, demoId);
    const orderNo = await insertPendingRecharge(h.app, demoId, 50, 5000, BANK_PAY_TYPE);
    const forged = confirmation(orderNo, 5000, bank.sign('another body'));
    expect(await deliver(forged)).toEqual({ status: 401, body: 'REJECTED' });
    const last = await h.app.pdb.db
      .selectFrom('billing_notifications')
      .select(['provider', 'verdict', 'detail', 'raw_body'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({
      provider: 'bank-transfer',
      verdict: 'bad-signature',
      detail: 'HMAC does not verify',
      raw_body: forged.body,
    });
    expect(await deliver({ body: '{', signature: bank.sign('{') })).toEqual({
      status: 400,
      body: 'REJECTED',
    });
    // a wrong amount is checked by billing, whatever the provider
    expect(await deliver(confirmation(orderNo, 1))).toEqual({ status: 400, body: 'REJECTED' });
    expect(await balances(h.app, demoId)).toEqual(before);
  });

  it('answers 404 for a provider nobody registered, and cancels a pending order of its pay type through it', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: BillingNotifyPaths.of('no-such-bank'),
      payload: 'x',
    });
    expect(res.statusCode).toBe(404);
    const orderNo = await insertPendingRecharge(h.app, demoId, 60, 6000, BANK_PAY_TYPE);
    expect((await post(h.app, BillingPaths.cancelPay, { order_no: orderNo }, token)).code).toBe(200);
    expect(bank.closed.has(orderNo)).toBe(true);
    const order = await h.app.pdb.db
      .selectFrom('billing_orders')
      .select('status')
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(Number(order.status)).toBe(PayStatus.cancelled);
    expect(h.app.billing.provider(BANK_PAY_TYPE)).toBe(bank);
    expect(() =>
      h.app.billing.providers.register(
        Object.assign(new BankTransferProvider(randomBytes(32)), { name: 'other-bank' }),
      ),
    ).toThrow(TypeError);
  });
});
