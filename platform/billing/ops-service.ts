/**
 * The operators' orders view (contract `BillingOpsPaths`; docs/decisions/015-operator-console-roles.md, 018-billing.md):
 * orders by order number or mobile, one order with its notifications (raw, with verdicts) and journal entries, and
 * the console queue of flagged orders (a notification that did not match, or a payment after a close).
 */
import type { Kysely } from 'kysely';
import {
  BillingMsg,
  ORDER_NO_RE,
  PAY_STATUS_TEXT,
  type NotifyVerdict,
  type PayStatusCode,
  type PayTypeCode,
} from '../../contract/billing.ts';
import { type OpsOrderDetail, type OpsOrderListData, type OpsOrderRow } from '../../contract/billing-ops.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { MOBILE_RE } from '../../contract/validators.ts';
import { OPS_PAGE_SIZE, type OpsQueueItem } from '../../contract/ops.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { balanceOf, orderJournal } from './journal.ts';
import type { BillingOrderRow } from './schema.ts';

/** The area name of the console queue and of the audit entries. */
export const BILLING_AREA = 'billing';
/** Notifications listed per order (newest first). */
const MAX_NOTIFICATIONS = 100;

type OrderWithMobile = BillingOrderRow & { mobile: string };

function opsRow(o: OrderWithMobile): OpsOrderRow {
  const status = Number(o.status) as PayStatusCode;
  return {
    order_no: o.order_no,
    userId: Number(o.user_id),
    mobile: o.mobile,
    integral: Number(o.points),
    amountFen: Number(o.amount_fen),
    pay_type: Number(o.pay_type) as PayTypeCode,
    status,
    pay_status: PAY_STATUS_TEXT[status],
    tradeNo: o.trade_no,
    flagged: o.flag !== '',
    flagReason: o.flag_reason,
    createdAt: formatBeijing(Number(o.created_at)),
    paidAt: o.paid_at ? formatBeijing(Number(o.paid_at)) : '',
  };
}

function ordersWithMobile(db: Kysely<Database>) {
  return db.selectFrom('billing_orders').innerJoin('users', 'users.id', 'billing_orders.user_id');
}

/** Orders matching `q` (an order number, or a mobile; blank: all), newest first, {@link OPS_PAGE_SIZE} a page. */
export async function searchOrders(
  db: Kysely<Database>,
  q: string | undefined,
  page: number,
): Promise<OpsOrderListData> {
  let base = ordersWithMobile(db);
  if (q && MOBILE_RE.test(q)) base = base.where('users.mobile', '=', q);
  else if (q) base = base.where('billing_orders.order_no', '=', q);
  const [rows, total] = await Promise.all([
    base
      .selectAll('billing_orders')
      .select('users.mobile')
      .orderBy('billing_orders.id', 'desc')
      .limit(OPS_PAGE_SIZE)
      .offset((page - 1) * OPS_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(opsRow), count: Number(total.n) };
}

/** One order with its notifications and journal. @throws ApiError 404 订单不存在 */
export async function opsOrderDetail(db: Kysely<Database>, orderNo: string): Promise<OpsOrderDetail> {
  const o = ORDER_NO_RE.test(orderNo)
    ? await ordersWithMobile(db)
        .selectAll('billing_orders')
        .select('users.mobile')
        .where('billing_orders.order_no', '=', orderNo)
        .executeTakeFirst()
    : undefined;
  if (!o) throw new ApiError(ApiCode.NOT_FOUND, BillingMsg.orderNotFound);
  const [notes, journal, balance] = await Promise.all([
    db
      .selectFrom('billing_notifications')
      .selectAll()
      .where('order_no', '=', orderNo)
      .orderBy('id', 'desc')
      .limit(MAX_NOTIFICATIONS)
      .execute(),
    orderJournal(db, o.id, orderNo),
    balanceOf(db, Number(o.user_id)),
  ]);
  return {
    order: opsRow(o),
    notifications: notes.map((n) => ({
      id: Number(n.id),
      provider: n.provider,
      verdict: n.verdict as NotifyVerdict,
      detail: n.detail,
      raw: n.raw_body,
      headers: n.headers,
      receivedAt: formatBeijing(Number(n.received_at)),
    })),
    journal,
    balance,
  };
}

/** The console queue: flagged orders, oldest first. */
export async function flaggedWaiting(
  db: Kysely<Database>,
  limit: number,
): Promise<{ count: number; items: OpsQueueItem[] }> {
  const base = ordersWithMobile(db).where('billing_orders.flag', '<>', '');
  const [rows, total] = await Promise.all([
    base
      .select([
        'billing_orders.id',
        'billing_orders.order_no',
        'billing_orders.flag',
        'billing_orders.updated_at',
        'users.mobile',
      ])
      .orderBy('billing_orders.updated_at')
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((r) => ({
    id: Number(r.id),
    ref: r.order_no,
    subject: r.mobile,
    name: `${r.order_no} (${r.flag})`,
    submittedAt: formatBeijing(Number(r.updated_at)),
  }));
  return { count: Number(total.n), items };
}
