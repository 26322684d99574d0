/**
 * The notary office's view of paid orders (decision 034; contract/notary-office.ts; docs/decisions/034-notary.md):
 * the queue by state, what waits on the console home, one order's detail, the notarial certificate number, and the
 * office's 404/400 answers. The decisions on an order are in `platform/notary/ops-decisions.ts`, the public check in
 * public-check.ts.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  Notarial,
  type NotarialCode,
  NotaryPay,
  type NotaryStepCode,
  notaryType,
} from '../../contract/notary.ts';
import {
  NotaryOpsMsg,
  type NotaryOpsDetail,
  NotaryQueueState,
  type NotaryQueueData,
  type NotaryQueueRow,
} from '../../contract/notary-office.ts';
import type { OpsQueueItem } from '../../contract/ops.ts';
import { OPS_PAGE_SIZE } from '../../contract/ops.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { applicationForm } from './application.ts';
import type { NotaryOrderRowDb } from './schema.ts';
import { orderEvidences } from './service.ts';
import type { z } from 'zod';
import type { NotaryQueueQuery } from '../../contract/notary-office.ts';

/** The office's 404 (订单不存在): an unknown order, or one never paid. */
export const notFound = () => new ApiError(ApiCode.NOT_FOUND, NotaryOpsMsg.notFound);
/** The office's 400 (wrong state): the order is not in a state the decision applies to. */
export const wrongState = () => new ApiError(ApiCode.BAD_REQUEST, NotaryOpsMsg.wrongState);
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
