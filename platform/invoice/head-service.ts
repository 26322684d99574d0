/**
 * Invoice heads (spec 02 §3 "Invoice head", §5 "Invoice heads", §9; docs/decisions/022-invoices.md): a user's heads,
 * oldest first; at most `MAX_INVOICE_HEADS` (5) per user, counted in a per-user transaction so concurrent adds cannot
 * pass the limit together. Applications copy a head when asked, so editing or deleting one changes no application.
 * Another user's ids read as not found (404 发票抬头不存在).
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  InvoiceMsg,
  MAX_INVOICE_HEADS,
  type InvoiceHead,
  type InvoiceHeadBody,
} from '../../contract/invoice.ts';
import { ApiError } from '../core/errors.ts';
import { addOwnedWithinLimit, deleteOwned } from '../core/owned-rows.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { InvoiceHeadRow } from './schema.ts';

const notFound = () => new ApiError(ApiCode.NOT_FOUND, InvoiceMsg.headNotFound);

/** The contract shape of a head row. */
export function toInvoiceHead(r: InvoiceHeadRow): InvoiceHead {
  return {
    id: Number(r.id),
    head: r.head,
    taxNum: r.tax_num,
    type: r.type,
    bankName: r.bank_name,
    account: r.account,
    street: r.street,
    phoneNumber: r.phone_number,
  };
}

function headValues(b: InvoiceHeadBody) {
  return {
    head: b.head ?? '',
    type: b.type,
    tax_num: b.taxNum,
    bank_name: b.bankName ?? '',
    account: b.account ?? '',
    street: b.street ?? '',
    phone_number: b.phoneNumber ?? '',
  };
}

export function ownedHead(db: Kysely<Database>, userId: number, id: number) {
  return db
    .selectFrom('invoice_heads')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The heads of `userId`, oldest first. */
export async function listHeads(db: Kysely<Database>, userId: number): Promise<InvoiceHead[]> {
  const rows = await db
    .selectFrom('invoice_heads')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toInvoiceHead);
}

/**
 * Adds a head for `userId` (`now` unix seconds).
 * @throws ApiError 400 `InvoiceMsg.tooManyHeads` (最多保存 5 个发票抬头信息) at MAX_INVOICE_HEADS
 */
export async function addHead(
  pdb: PlatformDb,
  userId: number,
  b: InvoiceHeadBody,
  now: number,
): Promise<InvoiceHead> {
  const limit = { max: MAX_INVOICE_HEADS, message: InvoiceMsg.tooManyHeads };
  const row = await addOwnedWithinLimit(pdb, 'invoice_heads', userId, limit, (trx) =>
    trx
      .insertInto('invoice_heads')
      .values({ user_id: userId, ...headValues(b), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return toInvoiceHead(row);
}

/** Replaces head `id` of `userId`. @throws ApiError 404 `InvoiceMsg.headNotFound` when it is not theirs */
export async function editHead(
  db: Kysely<Database>,
  userId: number,
  id: number,
  b: InvoiceHeadBody,
  now: number,
): Promise<InvoiceHead> {
  const row = await db
    .updateTable('invoice_heads')
    .set({ ...headValues(b), updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound();
  return toInvoiceHead(row);
}

/**
 * Deletes head `id` of `userId`; applications keep their copy of it.
 * @throws ApiError 404 `InvoiceMsg.headNotFound` when it is not theirs
 */
export function deleteHead(db: Kysely<Database>, userId: number, id: number): Promise<void> {
  return deleteOwned(db, 'invoice_heads', userId, id, InvoiceMsg.headNotFound);
}
