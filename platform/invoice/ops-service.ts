/**
 * The finance queue of invoice applications (spec 02 §2 "Invoices", §4 "Invoice application status";
 * docs/decisions/022-invoices.md, 015-operator-console-roles.md): what waits (待开票 and 提交财务, oldest first), one
 * application, and the decisions — submit to finance (1 → 2), issue (1|2 → 3: the PDF/OFD files of an electronic
 * invoice, checked by their bytes and stored in the `invoices` bucket, or the courier number of a paper special
 * invoice; the orders move to invoiceStatus 2) and reject (1|2 → 4 with a reason; the orders move to invoiceStatus 3,
 * selectable again). Each decision runs in the owner's per-user transaction (so it never interleaves with their
 * asks) with its audit entry (area `invoice`) and, for issue and reject, the user's notification. An issued file's
 * row commits only with its bytes stored; bytes stored for a transaction that fails are deleted again.
 */
import type { Kysely } from 'kysely';
import { InvoiceStatus } from '../../contract/billing-codes.ts';
import { ApiCode } from '../../contract/envelope.ts';
import {
  ApplyStatus,
  InvoiceCourierBody,
  InvoiceMsg,
  MAX_INVOICE_FILES,
  type InvoiceOpsDetail,
  type InvoiceQueueData,
} from '../../contract/invoice.ts';
import { OPS_PAGE_SIZE, type OpsQueueItem } from '../../contract/ops.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newObjectKey, StagedPuts } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';
import { notify } from '../notification/notifications.ts';
import { writeAudit } from '../ops/audit.ts';
import type { InvoiceApplicationRow } from './schema.ts';
import {
  applicationDetail,
  applicationsWithCount,
  findApplication,
  toApplicationRow,
} from './applications.ts';
import { invoiceFileFormat } from './file-format.ts';

/** The area of the console queue and of the audit entries. */
export const INVOICE_AREA = 'invoice';

/** The rows of the queue at `status` with the owner's mobile: waiting (1, 2) oldest first, decided newest first. */
function queueQuery(db: Kysely<Database>, status: 'waiting' | '3' | '4') {
  const statuses = status === 'waiting' ? [ApplyStatus.waiting, ApplyStatus.submitted] : [Number(status)];
  const waiting = status === 'waiting';
  const rows = applicationsWithCount(db)
    .innerJoin('users', 'users.id', 'invoice_applications.user_id')
    .select('users.mobile')
    .where('invoice_applications.status', 'in', statuses)
    .orderBy(
      waiting ? 'invoice_applications.created_at' : 'invoice_applications.decided_at',
      waiting ? 'asc' : 'desc',
    )
    .orderBy('invoice_applications.id', waiting ? 'asc' : 'desc');
  const count = db
    .selectFrom('invoice_applications')
    .where('status', 'in', statuses)
    .select((eb) => eb.fn.countAll<number>().as('n'));
  return { rows, count };
}

type QueueRow = InvoiceApplicationRow & { mobile: string; order_count: number | null };

/** `limit` rows of the queue at `status` from `offset`, and how many there are in all. */
async function queueSlice(
  db: Kysely<Database>,
  status: 'waiting' | '3' | '4',
  limit: number,
  offset: number,
) {
  const q = queueQuery(db, status);
  const [rows, total] = await Promise.all([
    q.rows.limit(limit).offset(offset).execute(),
    q.count.executeTakeFirstOrThrow(),
  ]);
  const list = rows.map((r: QueueRow) => ({
    ...toApplicationRow(r),
    userId: Number(r.user_id),
    mobile: r.mobile,
    type: r.type,
    head: r.head,
  }));
  return { count: Number(total.n), list };
}

/** One page ({@link OPS_PAGE_SIZE}) of the queue at `status`, and how many there are. */
export function invoiceQueue(
  db: Kysely<Database>,
  status: 'waiting' | '3' | '4',
  page: number,
): Promise<InvoiceQueueData> {
  return queueSlice(db, status, OPS_PAGE_SIZE, (page - 1) * OPS_PAGE_SIZE);
}

/** What waits for finance, for the console home: how many, and the oldest `limit` (`ref`: the application id). */
export async function invoiceWaiting(
  db: Kysely<Database>,
  limit: number,
): Promise<{ count: number; items: OpsQueueItem[] }> {
  const { count, list } = await queueSlice(db, 'waiting', limit, 0);
  const items = list.map((r) => ({
    id: r.id,
    ref: String(r.id),
    subject: r.mobile,
    name: r.head,
    submittedAt: r.create_time,
  }));
  return { count, items };
}

const notFound = () => new ApiError(ApiCode.NOT_FOUND, InvoiceMsg.applicationNotFound);

/** One application for finance, with its owner. @throws ApiError 404 `applicationNotFound` */
export async function invoiceOpsDetail(db: Kysely<Database>, id: number): Promise<InvoiceOpsDetail> {
  const a = await findApplication(db, id, null);
  if (!a) throw notFound();
  const user = await db.selectFrom('users').select('mobile').where('id', '=', a.user_id).executeTakeFirst();
  return { ...(await applicationDetail(db, a)), userId: Number(a.user_id), mobile: user?.mobile ?? '' };
}

/** What a decision needs: the database, the operator and the application. */
export interface Decision {
  pdb: PlatformDb;
  operatorId: number;
  id: number;
}

/**
 * Runs `fn` on application `d.id` in its owner's transaction when its status is one of `from`, then writes the
 * audit entry `action` (subject: the application number) with `remark`.
 * @throws ApiError 404 `applicationNotFound`; ApiError 400 `wrongState` from another status
 */
async function decide(
  d: Decision,
  from: readonly number[],
  action: string,
  fn: (trx: Kysely<Database>, a: InvoiceApplicationRow, now: number) => Promise<string>,
): Promise<void> {
  const found = await findApplication(d.pdb.db, d.id, null);
  if (!found) throw notFound();
  const userId = Number(found.user_id);
  await withUserTransaction(d.pdb, userId, async (trx) => {
    const a = await findApplication(trx, d.id, null);
    if (!a) throw notFound();
    if (!from.includes(Number(a.status))) throw new ApiError(ApiCode.BAD_REQUEST, InvoiceMsg.wrongState);
    const now = nowSeconds();
    const remark = await fn(trx, a, now);
    await writeAudit(
      trx,
      { operatorId: d.operatorId, area: INVOICE_AREA, action, subject: a.apply_no, userId, remark },
      now,
    );
  });
}

/** Moves the application's orders to `invoiceStatus`. */
async function moveOrders(trx: Kysely<Database>, applicationId: number, invoiceStatus: number, now: number) {
  await trx
    .updateTable('billing_orders')
    .set({ invoice_status: invoiceStatus, updated_at: now })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('invoice_application_orders')
        .select('order_id')
        .where('application_id', '=', applicationId),
    )
    .execute();
}

/** 待开票 → 提交财务. @throws as {@link decide} */
export async function submitToFinance(d: Decision): Promise<void> {
  await decide(d, [ApplyStatus.waiting], 'submit', async (trx, a, now) => {
    await trx
      .updateTable('invoice_applications')
      .set({ status: ApplyStatus.submitted, updated_at: now })
      .where('id', '=', a.id)
      .execute();
    return '';
  });
}

/**
 * Rejects with `remark` (1|2 → 4): the orders return to invoiceStatus 3; the user is notified.
 * @throws as {@link decide}
 */
export async function rejectApplication(d: Decision, remark: string): Promise<void> {
  await decide(d, [ApplyStatus.waiting, ApplyStatus.submitted], 'reject', async (trx, a, now) => {
    await trx
      .updateTable('invoice_applications')
      .set({ status: ApplyStatus.rejected, check_remark: remark, decided_at: now, updated_at: now })
      .where('id', '=', a.id)
      .execute();
    await moveOrders(trx, Number(a.id), InvoiceStatus.failed, now);
    await notify(trx, Number(a.user_id), InvoiceMsg.rejectedNews(a.apply_no, remark), now);
    return remark;
  });
}

/**
 * Issues the application (1|2 → 3): an electronic ENTERPRISE invoice with `files` (1–5, each a PDF or an OFD by its
 * bytes, moved into `bucket`), a paper ENTERPRISE_SPECIAL invoice with `fields.courierNumber`. The orders move to
 * invoiceStatus 2; the user is notified.
 * @param fields the text fields of the call (`courierNumber` for a paper invoice)
 * @param files the received files in the temp area (the caller discards what is left of them)
 * @throws ApiError 404 `applicationNotFound`; ApiError 400 `filesRequired`, `tooManyFiles`, `fileType`,
 *   `courierRequired`/`courierInvalid`, `wrongState` (also for files sent for a paper invoice)
 */
export async function issueInvoice(
  d: Decision,
  bucket: FileBucket,
  fields: Record<string, unknown>,
  files: readonly ReceivedFile[],
): Promise<void> {
  const found = await findApplication(d.pdb.db, d.id, null);
  if (!found) throw notFound();
  const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);
  const from = [ApplyStatus.waiting, ApplyStatus.submitted];
  if (found.type === 'ENTERPRISE_SPECIAL') {
    if (files.length > 0) throw bad(InvoiceMsg.wrongState);
    const { courierNumber } = parseInput(InvoiceCourierBody, { ...fields, id: d.id });
    await decide(d, from, 'issue', async (trx, a, now) => {
      await trx
        .updateTable('invoice_applications')
        .set({ status: ApplyStatus.issued, courier_number: courierNumber, decided_at: now, updated_at: now })
        .where('id', '=', a.id)
        .execute();
      await finishIssue(trx, a, now);
      return `courier ${courierNumber}`;
    });
    return;
  }
  if (files.length === 0) throw bad(InvoiceMsg.filesRequired);
  if (files.length > MAX_INVOICE_FILES) throw bad(InvoiceMsg.tooManyFiles);
  const formats: ('pdf' | 'ofd')[] = [];
  for (const f of files) {
    const format = await invoiceFileFormat(f.path);
    if (!format) throw bad(InvoiceMsg.fileType);
    formats.push(format);
  }
  const staged = new StagedPuts(bucket);
  try {
    await decide(d, from, 'issue', async (trx, a, now) => {
      for (const [i, f] of files.entries()) {
        const key = newObjectKey();
        await trx
          .insertInto('invoice_files')
          .values({
            application_id: a.id,
            storage_key: key,
            format: formats[i]!,
            file_size: f.size,
            sha256: f.sha256,
            created_at: now,
          })
          .execute();
        await staged.put(f.path, key);
      }
      await trx
        .updateTable('invoice_applications')
        .set({ status: ApplyStatus.issued, decided_at: now, updated_at: now })
        .where('id', '=', a.id)
        .execute();
      await finishIssue(trx, a, now);
      return `files ${files.length}`;
    });
  } catch (err) {
    await staged.discard();
    throw err;
  }
}

/** The orders of an issued application move to invoiceStatus 2, and the user is told. */
async function finishIssue(trx: Kysely<Database>, a: InvoiceApplicationRow, now: number): Promise<void> {
  await moveOrders(trx, Number(a.id), InvoiceStatus.invoiced, now);
  await notify(trx, Number(a.user_id), InvoiceMsg.issuedNews(a.apply_no), now);
}
