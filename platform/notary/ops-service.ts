/**
 * The notary office's work on paid orders (decision 034; contract/notary-office.ts; docs/decisions/
 * 034-notary.md). Each decision runs in the order owner's per-user
 * transaction (so it never interleaves with the user's own steps, payment or end operation) and writes its audit
 * entry (area `notary`) and the user's notification in the same transaction. Files stored for a decision that fails
 * are deleted again; files a decision drops are deleted after it commits. The public check is in public-check.ts.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  NOTARIAL_CERTIFICATE_TYPE,
  Notarial,
  type NotarialCode,
  NotaryMsg,
  NotaryPay,
  NotaryStep,
  type NotaryStepCode,
  notaryType,
} from '../../contract/notary.ts';
import {
  NOTARY_AREA,
  NotaryOpsMsg,
  type NotaryOpsDetail,
  NotaryQueueState,
  type NotaryQueueData,
  type NotaryQueueRow,
} from '../../contract/notary-office.ts';
import type { OpsQueueItem } from '../../contract/ops.ts';
import { OPS_PAGE_SIZE } from '../../contract/ops.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newObjectKey, StagedPuts } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';
import { notify } from '../notification/notifications.ts';
import { writeAudit } from '../ops/audit.ts';
import { applicationForm } from './application.ts';
import type { NotaryOrderRowDb } from './schema.ts';
import { orderEvidences, refundOrder } from './service.ts';
import { isPdf } from './workflow.ts';
import type { z } from 'zod';
import type { NotaryQueueQuery } from '../../contract/notary-office.ts';

/** The office's 404 (订单不存在): an unknown order, or one never paid. */
export const notFound = () => new ApiError(ApiCode.NOT_FOUND, NotaryOpsMsg.notFound);
const wrongState = () => new ApiError(ApiCode.BAD_REQUEST, NotaryOpsMsg.wrongState);
type QueueQuery = z.infer<typeof NotaryQueueQuery>;

/** The notarial certificate number of order `id` accepted at `now`: `(YYYY)存证云公字第000123号` (unique: the id). */
export function certificateNumber(id: number, now: number): string {
  const year = formatBeijing(now).slice(0, 4);
  return `(${year})存证云公字第${String(id).padStart(6, '0')}号`;
}

function queueRow(o: NotaryOrderRowDb & { mobile: string }): NotaryQueueRow {
  return {
    id: Number(o.id),
    orderNo: o.order_no,
    mobile: o.mobile,
    typeName: notaryType(Number(o.type))?.name ?? '',
    number: Number(o.records),
    money: Number(o.points),
    paidAt: o.paid_at === null ? '' : formatBeijing(Number(o.paid_at)),
    step: Number(o.step) as NotaryStepCode,
    notarial: o.notarial === null ? null : (Number(o.notarial) as NotarialCode),
    certificateNo: o.certificate_no,
  };
}

/** Paid orders of a queue state (waiting: oldest paid first; accepted and decided: newest first), 20 a page. */
export async function notaryQueue(db: Kysely<Database>, q: QueueQuery): Promise<NotaryQueueData> {
  let base = db
    .selectFrom('notary_orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .where('o.paid_at', 'is not', null);
  if (q.state === NotaryQueueState.waiting)
    base = base.where('o.pay', '=', NotaryPay.paid).where('o.notarial', 'is', null);
  else if (q.state === NotaryQueueState.accepted) base = base.where('o.notarial', '=', Notarial.inProgress);
  else base = base.where('o.notarial', 'in', [Notarial.succeeded, Notarial.terminated, Notarial.failed]);
  const [total, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll('o')
      .select('u.mobile')
      .orderBy('o.paid_at', q.state === NotaryQueueState.waiting ? 'asc' : 'desc')
      .orderBy('o.id')
      .limit(OPS_PAGE_SIZE)
      .offset((q.page - 1) * OPS_PAGE_SIZE)
      .execute(),
  ]);
  return { count: Number(total.n), list: rows.map(queueRow) };
}

/** What waits for the office (the console home): paid orders with every step done, not yet accepted. */
export async function notaryWaiting(
  db: Kysely<Database>,
  limit: number,
): Promise<{ count: number; items: OpsQueueItem[] }> {
  const { count, list } = await notaryQueue(db, { state: NotaryQueueState.waiting, page: 1 });
  return {
    count,
    items: list.slice(0, limit).map((r) => ({
      id: r.id,
      ref: String(r.id),
      subject: r.mobile,
      name: r.orderNo,
      submittedAt: r.paidAt,
    })),
  };
}

/** Paid order `id` with its user's mobile, or undefined (the office sees paid orders only). */
export async function orderWithMobile(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('notary_orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .selectAll('o')
    .select('u.mobile')
    .where('o.id', '=', id)
    .where('o.paid_at', 'is not', null)
    .executeTakeFirst();
}

const at = (t: number | null) => (t === null ? null : formatBeijing(Number(t)));

/** One paid order as the office sees it. @throws ApiError 404 for none (or one never paid) */
export async function notaryOpsDetail(db: Kysely<Database>, id: number): Promise<NotaryOpsDetail> {
  const o = await orderWithMobile(db, id);
  if (!o) throw notFound();
  const [app, docs, evidences] = await Promise.all([
    db.selectFrom('notary_applications').selectAll().where('order_id', '=', o.id).executeTakeFirst(),
    db.selectFrom('notary_documents').selectAll().where('order_id', '=', o.id).orderBy('doc_type').execute(),
    orderEvidences(db, Number(o.id))
      .select([
        'e.id',
        'e.baoquan',
        'e.title',
        'e.file_name',
        'e.created_at',
        'e.sha256',
        'e.file_size',
        'e.kind',
      ])
      .execute(),
  ]);
  return {
    order: {
      ...queueRow(o),
      userId: Number(o.user_id),
      addTime: formatBeijing(Number(o.created_at)),
      authorizedAt: at(o.authorized_at),
      acceptedAt: at(o.accepted_at),
      issuedAt: at(o.issued_at),
      officeRemark: o.office_remark,
      paperRequestedAt: at(o.paper_requested_at),
      courierNumber: o.courier_number,
    },
    applicant: app
      ? { kind: app.applicant_kind, name: app.applicant_name, idNumber: app.applicant_id_number }
      : null,
    application: app ? applicationForm(app) : null,
    documents: docs.map((d) => ({
      id: Number(d.id),
      type: Number(d.doc_type),
      size: Number(d.file_size),
      sha256: d.sha256,
    })),
    evidences: evidences.map((e) => ({
      id: Number(e.id),
      baoquan: e.baoquan,
      title: e.title,
      name: e.file_name,
      saveTime: formatBeijing(Number(e.created_at)),
      fileHash: e.sha256,
      size: Number(e.file_size),
      kind: e.kind,
    })),
    readable: o.authorized_at !== null,
  };
}

/** An operator's decision on order `id`. */
export interface NotaryDecision {
  pdb: PlatformDb;
  operatorId: number;
  id: number;
}

/**
 * Runs `fn` on paid order `d.id` in its owner's transaction when `allowed(order)`, then writes the audit entry
 * `action` (subject: the order number) with the remark `fn` returns.
 * @throws ApiError 404 notFound; 400 wrongState when not allowed; what `fn` throws
 */
async function decide(
  d: NotaryDecision,
  action: string,
  allowed: (o: NotaryOrderRowDb) => boolean,
  fn: (trx: Kysely<Database>, o: NotaryOrderRowDb, now: number) => Promise<string>,
): Promise<void> {
  const found = await orderWithMobile(d.pdb.db, d.id);
  if (!found) throw notFound();
  const userId = Number(found.user_id);
  await withUserTransaction(d.pdb, userId, async (trx) => {
    const o = await orderWithMobile(trx, d.id);
    if (!o) throw notFound();
    if (!allowed(o)) throw wrongState();
    const now = nowSeconds();
    const remark = await fn(trx, o, now);
    await writeAudit(
      trx,
      { operatorId: d.operatorId, area: NOTARY_AREA, action, subject: o.order_no, userId, remark },
      now,
    );
  });
}

const isPaidUndecided = (o: NotaryOrderRowDb) =>
  Number(o.pay) === NotaryPay.paid && (o.notarial === null || Number(o.notarial) === Notarial.inProgress);

/**
 * Accepts a paid order whose steps are all done: issuance 1 (出证中), the notarial certificate number given (kept if
 * it had one). The user can no longer end it; the user is notified.
 * @throws as {@link decide}; 400 notComplete while the user has steps to do
 */
export async function acceptOrder(d: NotaryDecision): Promise<void> {
  await decide(
    d,
    'accept',
    (o) => Number(o.pay) === NotaryPay.paid && o.notarial === null,
    async (trx, o, now) => {
      if (Number(o.step) !== NotaryStep.done)
        throw new ApiError(ApiCode.BAD_REQUEST, NotaryOpsMsg.notComplete);
      const number = o.certificate_no ?? certificateNumber(Number(o.id), now);
      await trx
        .updateTable('notary_orders')
        .set({ notarial: Notarial.inProgress, accepted_at: now, certificate_no: number, updated_at: now })
        .where('id', '=', o.id)
        .execute();
      await notify(trx, Number(o.user_id), NotaryMsg.acceptedNews(o.order_no), now);
      return number;
    },
  );
}

/**
 * Sends a paid, undecided order back to step `step` (1 application, 2 signature, 3 authorisation) for more material:
 * what that step and the ones after it produced is dropped (the application, the signed documents, the
 * authorisation; their files deleted after the commit), acceptance is withdrawn, the remark is kept for the user and
 * they are notified. The payment stays: once the steps are redone the order is back at step 5.
 * @throws as {@link decide}
 */
export async function returnToStep(
  d: NotaryDecision,
  bucket: FileBucket,
  step: NotaryStepCode,
  remark: string,
): Promise<void> {
  const dropped: string[] = [];
  await decide(d, 'return', isPaidUndecided, async (trx, o, now) => {
    if (step <= NotaryStep.signature) {
      const docs = await trx
        .selectFrom('notary_documents')
        .select('storage_key')
        .where('order_id', '=', o.id)
        .where('doc_type', '<', NOTARIAL_CERTIFICATE_TYPE)
        .execute();
      dropped.push(...docs.map((x) => x.storage_key));
      await trx
        .deleteFrom('notary_documents')
        .where('order_id', '=', o.id)
        .where('doc_type', '<', NOTARIAL_CERTIFICATE_TYPE)
        .execute();
    }
    if (step === NotaryStep.applicationForm) {
      await trx.deleteFrom('notary_applications').where('order_id', '=', o.id).execute();
    }
    await trx
      .updateTable('notary_orders')
      .set({
        step,
        authorized_at: null,
        notarial: null,
        accepted_at: null,
        office_remark: remark,
        updated_at: now,
      })
      .where('id', '=', o.id)
      .execute();
    await notify(trx, Number(o.user_id), NotaryMsg.returnedNews(o.order_no, remark), now);
    return `step ${step}: ${remark}`;
  });
  await Promise.all(dropped.map((key) => bucket.delete(key).catch(() => undefined)));
}

/**
 * Terminates a paid, undecided order: issuance 3 (已终止), the points given back (a reversal of its consumption
 * order), the user notified with the reason.
 * @throws as {@link decide}
 */
export async function terminateOrder(d: NotaryDecision, remark: string): Promise<void> {
  await decide(d, 'terminate', isPaidUndecided, async (trx, o, now) => {
    await refundOrder(trx, o, now);
    await trx
      .updateTable('notary_orders')
      .set({ notarial: Notarial.terminated, office_remark: remark, stopped_at: now, updated_at: now })
      .where('id', '=', o.id)
      .execute();
    await notify(trx, Number(o.user_id), NotaryMsg.terminatedNews(o.order_no, remark), now);
    return remark;
  });
}

/**
 * Issues an accepted order: `file` (the signed notarial certificate, a PDF) is stored as its document 5, issuance 2
 * (出证成功), the user notified with the certificate number.
 * @throws as {@link decide}; 400 certificateRequired when `file` is missing or no PDF
 */
export async function issueCertificate(
  d: NotaryDecision,
  bucket: FileBucket,
  file: ReceivedFile | undefined,
): Promise<void> {
  if (!file || !(await isPdf(file.path)))
    throw new ApiError(ApiCode.BAD_REQUEST, NotaryOpsMsg.certificateRequired);
  const staged = new StagedPuts(bucket);
  try {
    await decide(
      d,
      'issue',
      (o) => Number(o.notarial) === Notarial.inProgress,
      async (trx, o, now) => {
        const key = newObjectKey();
        await trx
          .insertInto('notary_documents')
          .values({
            order_id: Number(o.id),
            doc_type: NOTARIAL_CERTIFICATE_TYPE,
            storage_key: key,
            file_size: file.size,
            sha256: file.sha256,
            created_at: now,
          })
          .execute();
        await staged.put(file.path, key);
        await trx
          .updateTable('notary_orders')
          .set({ notarial: Notarial.succeeded, issued_at: now, updated_at: now })
          .where('id', '=', o.id)
          .execute();
        await notify(trx, Number(o.user_id), NotaryMsg.issuedNews(o.order_no, o.certificate_no ?? ''), now);
        return `${o.certificate_no} ${file.sha256}`;
      },
    );
  } catch (err) {
    await staged.discard();
    throw err;
  }
}

/**
 * Records that the paper certificate the user asked for was mailed (`courierNumber`, the waybill), and tells the user.
 * @throws as {@link decide}: wrongState unless issued, asked for and not yet sent
 */
export async function shipPaper(d: NotaryDecision, courierNumber: string): Promise<void> {
  await decide(
    d,
    'ship',
    (o) =>
      Number(o.notarial) === Notarial.succeeded && o.paper_requested_at !== null && o.courier_number === null,
    async (trx, o, now) => {
      await trx
        .updateTable('notary_orders')
        .set({ courier_number: courierNumber, shipped_at: now, updated_at: now })
        .where('id', '=', o.id)
        .execute();
      await notify(trx, Number(o.user_id), NotaryMsg.shippedNews(o.order_no, courierNumber), now);
      return courierNumber;
    },
  );
}
