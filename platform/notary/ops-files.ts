/**
 * What the notary office reads of an order (decision 034): its stored documents and certificate by row id, and
 * the evidences the user authorised it to read (step 3; 403 before). The routes stream them and audit every read.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { NotaryOpsMsg } from '../../contract/notary-office.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';
import { notFound, orderWithMobile } from './ops-service.ts';

/**
 * A stored document or certificate by its row id (the office's file route), only of a paid order: the office sees
 * paid orders only ({@link orderWithMobile}), and the step-2 documents (the applicant's name, ID number, address) are
 * stored before payment. Undefined otherwise.
 */
export function documentById(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('notary_documents as d')
    .innerJoin('notary_orders as o', 'o.id', 'd.order_id')
    .selectAll('d')
    .where('d.id', '=', id)
    .where('o.paid_at', 'is not', null)
    .executeTakeFirst();
}

/**
 * The file of evidence `evidenceId` of order `orderId` when the user has authorised the office to read it.
 * @throws ApiError 404 notFound when the order (paid) or evidence is not there; 403 notAuthorized before step 3
 */
export async function authorisedEvidence(db: Kysely<Database>, orderId: number, evidenceId: number) {
  const o = await orderWithMobile(db, orderId);
  if (!o) throw notFound();
  if (o.authorized_at === null) throw new ApiError(ApiCode.FORBIDDEN, NotaryOpsMsg.notAuthorized, 403);
  const ev = await db
    .selectFrom('notary_order_evidences as n')
    .innerJoin('evidences as e', 'e.id', 'n.evidence_id')
    .select(['e.baoquan', 'e.storage_key', 'e.file_size', 'e.mime', 'e.kind', 'e.deleted_at', 'e.file_name'])
    .where('n.order_id', '=', o.id)
    .where('e.id', '=', evidenceId)
    .executeTakeFirst();
  if (!ev || ev.kind !== 'file' || ev.deleted_at !== null) throw notFound();
  return { ...ev, orderNo: o.order_no, userId: Number(o.user_id) };
}
