/**
 * A user's invoice applications once asked (spec 02 §3, §7; docs/decisions/022-invoices.md): the list with order
 * counts, one application's detail with its orders and issued files, the rejection reason, and the issued files the
 * signed download routes serve. Scoped to the owner unless the caller (the finance queue) passes no user.
 */
import type { Kysely } from 'kysely';
import {
  ApplyStatus,
  INVOICE_CONTENT,
  INVOICE_PAGE_SIZE,
  InvoiceMsg,
  shippingFor,
  type ApplyStatusCode,
  type InvoiceDetailData,
  type InvoiceListData,
  type InvoiceListQuery,
} from '../../contract/invoice.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { InvoiceApplicationRow } from './schema.ts';
import { notFound, badRequest, toInvoiceOrderRow } from './service.ts';

/** The applications with their order counts (`order_count`). */
export function applicationsWithCount(db: Kysely<Database>) {
  return db
    .selectFrom('invoice_applications')
    .selectAll('invoice_applications')
    .select((eb) =>
      eb
        .selectFrom('invoice_application_orders')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('invoice_application_orders.application_id', '=', 'invoice_applications.id')
        .as('order_count'),
    );
}

/** A list row (spec 02 §3 "Invoice application") of an application with its order count. */
export function toApplicationRow(r: InvoiceApplicationRow & { order_count: number | null }) {
  return {
    id: Number(r.id),
    order_no: r.apply_no,
    create_time: formatBeijing(Number(r.created_at)),
    money: Number(r.money_fen),
    orderCount: Number(r.order_count ?? 0),
    status: Number(r.status) as ApplyStatusCode,
  };
}

/**
 * One page ({@link INVOICE_PAGE_SIZE}) of the caller's applications, newest first, filtered by creation time (unix
 * seconds, both ends included) and status (spec 02 §7 `invoiceList`).
 */
export async function listApplications(
  db: Kysely<Database>,
  userId: number,
  q: InvoiceListQuery,
): Promise<InvoiceListData> {
  let base = db.selectFrom('invoice_applications').where('user_id', '=', userId);
  if (q.startTime !== undefined) base = base.where('created_at', '>=', q.startTime);
  if (q.endTime !== undefined) base = base.where('created_at', '<=', q.endTime);
  if (q.status !== undefined) base = base.where('status', '=', q.status);
  const ids = base.select('id');
  const [rows, total] = await Promise.all([
    applicationsWithCount(db)
      .where('invoice_applications.id', 'in', ids)
      .orderBy('invoice_applications.created_at', 'desc')
      .orderBy('invoice_applications.id', 'desc')
      .limit(INVOICE_PAGE_SIZE)
      .offset((q.page - 1) * INVOICE_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { count: Number(total.n), list: rows.map(toApplicationRow) };
}

/** Application `id`, if it is `userId`'s (any user's when `userId` is null). */
export function findApplication(
  db: Kysely<Database>,
  id: number,
  userId: number | null,
): Promise<InvoiceApplicationRow | undefined> {
  let q = db.selectFrom('invoice_applications').selectAll().where('id', '=', id);
  if (userId !== null) q = q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

/**
 * The detail of application `a` (spec 02 §3 "Invoice detail", §7 `invoiceDetail` `{detail, orderList}`): the head
 * and address as copied when asked, the remarks, the courier number, the issued files and the orders.
 */
export async function applicationDetail(
  db: Kysely<Database>,
  a: InvoiceApplicationRow,
): Promise<InvoiceDetailData> {
  const [orders, files] = await Promise.all([
    db
      .selectFrom('billing_orders')
      .innerJoin('invoice_application_orders', 'invoice_application_orders.order_id', 'billing_orders.id')
      .selectAll('billing_orders')
      .where('invoice_application_orders.application_id', '=', a.id)
      .orderBy('billing_orders.created_at', 'asc')
      .orderBy('billing_orders.id', 'asc')
      .execute(),
    db
      .selectFrom('invoice_files')
      .selectAll()
      .where('application_id', '=', a.id)
      .orderBy('id', 'asc')
      .execute(),
  ]);
  const money = Number(a.money_fen);
  return {
    detail: {
      id: Number(a.id),
      order_no: a.apply_no,
      create_time: formatBeijing(Number(a.created_at)),
      money,
      status: Number(a.status) as ApplyStatusCode,
      type: a.type,
      head: a.head,
      tax_num: a.tax_num,
      bank_name: a.bank_name,
      account: a.account,
      street: a.street,
      phone_number: a.phone_number,
      name: a.recipient,
      post_phone_number: a.post_phone_number,
      address: `${a.province}${a.city}${a.area}${a.address}`,
      email: a.email,
      remark: a.remark,
      check_remark: a.check_remark,
      courier_number: a.courier_number,
      content: INVOICE_CONTENT,
      shipping: shippingFor(a.type, money),
      files: files.map((f, i) => ({
        id: Number(f.id),
        name: `发票${i + 1}.${f.format}`,
        format: f.format,
        size: Number(f.file_size),
      })),
      decided_time: a.decided_at ? formatBeijing(Number(a.decided_at)) : '',
    },
    orderList: orders.map(toInvoiceOrderRow),
  };
}

/** `invoiceDetail`: the caller's application. @throws ApiError 404 `applicationNotFound` */
export async function ownedApplicationDetail(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<InvoiceDetailData> {
  const a = await findApplication(db, id, userId);
  if (!a) throw notFound(InvoiceMsg.applicationNotFound);
  return applicationDetail(db, a);
}

/**
 * `checkFail`: the reason of the caller's rejected application.
 * @throws ApiError 404 `applicationNotFound`; ApiError 400 `notRejected` unless its status is 4
 */
export async function rejectionReason(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<{ checkRemark: string }> {
  const a = await findApplication(db, id, userId);
  if (!a) throw notFound(InvoiceMsg.applicationNotFound);
  if (Number(a.status) !== ApplyStatus.rejected) throw badRequest(InvoiceMsg.notRejected);
  return { checkRemark: a.check_remark };
}

/**
 * File `fileId` of the caller's application `id`, for a signed download URL.
 * @throws ApiError 404 `applicationNotFound` / `fileNotFound`
 */
export async function ownedFile(db: Kysely<Database>, userId: number, id: number, fileId: number) {
  const a = await findApplication(db, id, userId);
  if (!a) throw notFound(InvoiceMsg.applicationNotFound);
  const f = await db
    .selectFrom('invoice_files')
    .selectAll()
    .where('id', '=', fileId)
    .where('application_id', '=', id)
    .executeTakeFirst();
  if (!f) throw notFound(InvoiceMsg.fileNotFound);
  return f;
}

/** MIME types of the issued formats. */
export const INVOICE_FILE_MIME = { pdf: 'application/pdf', ofd: 'application/ofd' } as const;

/** What the signed file routes need of file `fileId` (any owner: the caller checked the signature or the role). */
export async function storedInvoiceFile(db: Kysely<Database>, fileId: number) {
  const f = await db.selectFrom('invoice_files').selectAll().where('id', '=', fileId).executeTakeFirst();
  return (
    f && { storage_key: f.storage_key, file_size: Number(f.file_size), mime: INVOICE_FILE_MIME[f.format] }
  );
}
