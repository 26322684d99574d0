/**
 * The notary office's decisions on paid orders (decision 034; contract/notary-office.ts): accept, return to a
 * step, terminate, issue the notarial certificate, ship the paper copy. Each decision runs in the order owner's
 * per-user transaction (so it never interleaves with the user's own steps, payment or end operation) and writes its
 * audit entry (area `notary`) and the user's notification in the same transaction. Files stored for a decision that
 * fails are deleted again; files a decision drops are deleted after it commits.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  NOTARIAL_CERTIFICATE_TYPE,
  Notarial,
  NotaryMsg,
  NotaryPay,
  NotaryStep,
  type NotaryStepCode,
} from '../../contract/notary.ts';
import { NOTARY_AREA, NotaryOpsMsg } from '../../contract/notary-office.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newObjectKey, StagedPuts } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';
import { notify } from '../notification/notifications.ts';
import { writeAudit } from '../ops/audit.ts';
import type { NotaryOrderRowDb } from './schema.ts';
import { refundOrder } from './service.ts';
import { isPdf } from './workflow.ts';
import { notFound, wrongState, certificateNumber, orderWithMobile } from './ops-service.ts';

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
