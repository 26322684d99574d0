/**
 * Invoice applications, the user's side (spec 02 §2 "Invoices", §3 "Invoice application", "Invoice detail",
 * "Invoice order row", §4 "Orders", §5 "Invoice application", §9; docs/decisions/022-invoices.md; the heads are in
 * head-service.ts):
 * - applications: the money is recomputed from the ids (never taken from the page), every order must be the caller's
 *   paid, provider-paid recharge of this Beijing year with invoiceStatus 0 or 3 (`invoiceBlockReason`, the same rule
 *   the pages explain with); the head and the address are copied into the application; the orders move to
 *   invoiceStatus 1 in the same transaction by a conditional update (`where invoice_status in (0, 3)`), so an order
 *   is never in two live applications, whoever asks concurrently;
 * - the list, the detail with its orders, the rejection reason and the issued files (signed, expiring URLs) are in
 *   `platform/invoice/applications.ts`.
 * Every query is scoped to the caller: another user's orders, heads, addresses, applications and files read as not found (404).
 */
import type { Kysely } from 'kysely';
import type { AddressBody } from '../../contract/address.ts';
import { InvoiceStatus } from '../../contract/billing-codes.ts';
import { ApiCode } from '../../contract/envelope.ts';
import {
  ApplyStatus,
  INVOICE_CONTENT,
  INVOICE_TYPES,
  InvoiceBlockMsg,
  InvoiceMsg,
  invoiceBlockReason,
  shippingFor,
  type InvoiceAskBody,
  type InvoiceOrderRow,
  type InvoicePreview,
  type InvoicePreviewBody,
  type InvoiceType,
} from '../../contract/invoice.ts';
import type { PayTypeCode } from '../../contract/billing-codes.ts';
import { checkRegion, toAddress } from '../address/service.ts';
import { orderRow } from '../billing/order-list.ts';
import type { BillingOrderRow } from '../billing/schema.ts';
import { ApiError } from '../core/errors.ts';
import { datedNumber } from '../core/crypto.ts';
import { formatBeijing } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ownedHead } from './head-service.ts';

/** A 404 with `msg` (an InvoiceMsg). */
export const notFound = (msg: string) => new ApiError(ApiCode.NOT_FOUND, msg);
/** A 400 with `msg` (an InvoiceMsg). */
export const badRequest = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/** An invoice order row (spec 02 §3) of a billing order. */
export function toInvoiceOrderRow(o: BillingOrderRow): InvoiceOrderRow {
  return {
    id: Number(o.id),
    order_no: o.order_no,
    create_time: formatBeijing(Number(o.created_at)),
    order_desc: o.description,
    money: Number(o.amount_fen),
    pay_type: Number(o.pay_type) as PayTypeCode,
  };
}

/**
 * The caller's orders `ids` (in that order), each checked with `invoiceBlockReason` at `nowMs` (spec 02 §4
 * "Orders", §9: the year of the order, Beijing time).
 * @throws ApiError 404 `InvoiceMsg.orderNotFound` when an id is not the caller's order; ApiError 400
 *   `InvoiceMsg.orderNotInvoiceable(order_no, reason)` for the first order that cannot be invoiced
 */
export async function invoiceableOrders(
  db: Kysely<Database>,
  userId: number,
  ids: readonly number[],
  nowMs: number,
): Promise<BillingOrderRow[]> {
  const rows = await db
    .selectFrom('billing_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const orders = ids.map((id) => byId.get(id));
  if (orders.some((o) => o === undefined)) throw notFound(InvoiceMsg.orderNotFound);
  for (const o of orders as BillingOrderRow[]) {
    const reason = invoiceBlockReason(orderRow(o), nowMs);
    if (reason) throw badRequest(InvoiceMsg.orderNotInvoiceable(o.order_no, reason));
  }
  return orders as BillingOrderRow[];
}

const sumFen = (orders: readonly BillingOrderRow[]) => orders.reduce((s, o) => s + Number(o.amount_fen), 0);

/**
 * What `/orders/makeOutInvoice` shows (`invoicePreview`): the orders, their total recomputed (fen), whether the
 * page's `money` differed, the content and the shipping per head type.
 * @param nowMs milliseconds since the epoch
 * @throws as {@link invoiceableOrders}
 */
export async function previewInvoice(
  db: Kysely<Database>,
  userId: number,
  b: InvoicePreviewBody,
  nowMs: number,
): Promise<InvoicePreview> {
  const orders = await invoiceableOrders(db, userId, b.ids, nowMs);
  const money = sumFen(orders);
  const shipping = Object.fromEntries(INVOICE_TYPES.map((t) => [t, shippingFor(t, money)])) as Record<
    InvoiceType,
    ReturnType<typeof shippingFor>
  >;
  return {
    orders: orders.map(toInvoiceOrderRow),
    money,
    moneyChanged: b.money !== undefined && b.money !== money,
    content: INVOICE_CONTENT,
    shipping,
  };
}

/** A new application number: 'F', the Beijing date, 80 random bits in hex (29 characters; not enumerable). */
export function newApplyNo(nowSeconds: number): string {
  return datedNumber('F', nowSeconds);
}

/**
 * Files an application (`invoiceAsk`) in one per-user transaction: the head and the address must be the caller's,
 * the address outside Hong Kong, Macau and Taiwan, every order invoiceable, `money` (when given) equal to the
 * recomputed total; the head and address are copied in; the orders move to invoiceStatus 1.
 * @param now unix seconds
 * @returns the new application's id
 * @throws ApiError 404 `headNotFound` / `addressNotFound` / `orderNotFound`; ApiError 400 `AddressMsg.noShipping`,
 *   `orderNotInvoiceable(order_no, reason)` (also when a concurrent ask took the order first), `moneyMismatch`
 */
export async function askInvoice(
  pdb: PlatformDb,
  userId: number,
  b: InvoiceAskBody,
  now: number,
): Promise<{ id: number }> {
  return withUserTransaction(pdb, userId, async (trx) => {
    const head = await ownedHead(trx, userId, b.userInvoiceId);
    if (!head) throw notFound(InvoiceMsg.headNotFound);
    const addressRow = await trx
      .selectFrom('addresses')
      .selectAll()
      .where('id', '=', b.userAddressId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!addressRow) throw notFound(InvoiceMsg.addressNotFound);
    const address = toAddress(addressRow);
    checkRegion(address satisfies AddressBody);
    const orders = await invoiceableOrders(trx, userId, b.ids, now * 1000);
    const money = sumFen(orders);
    if (b.money !== undefined && b.money !== money) throw badRequest(InvoiceMsg.moneyMismatch);

    // The guard of "one live application per order": only orders still at 0 or 3 move to 1.
    const moved = await trx
      .updateTable('billing_orders')
      .set({ invoice_status: InvoiceStatus.inProgress, updated_at: now })
      .where('user_id', '=', userId)
      .where('id', 'in', b.ids)
      .where('invoice_status', 'in', [InvoiceStatus.none, InvoiceStatus.failed])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== b.ids.length)
      throw badRequest(InvoiceMsg.orderNotInvoiceable(orders[0]!.order_no, InvoiceBlockMsg.inProgress));

    const { id } = await trx
      .insertInto('invoice_applications')
      .values({
        apply_no: newApplyNo(now),
        user_id: userId,
        status: ApplyStatus.waiting,
        money_fen: money,
        type: head.type,
        head: head.head,
        tax_num: head.tax_num,
        bank_name: head.bank_name,
        account: head.account,
        street: head.street,
        phone_number: head.phone_number,
        recipient: address.name,
        post_phone_number: address.phoneNumber,
        province: address.province,
        city: address.city,
        area: address.area,
        address: address.address,
        email: address.email,
        remark: b.remark ?? '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('invoice_application_orders')
      .values(b.ids.map((orderId) => ({ application_id: Number(id), order_id: orderId })))
      .execute();
    return { id: Number(id) };
  });
}
