/**
 * Steps 2–4 of a notarisation order and its refund (docs/decisions/034-notary.md):
 * - step 2, signature: what the four documents print ({@link documentData}: the saved application, the evidences,
 *   the user's default seal), then the four PDFs the gateway printed and signed (PAdES) stored in the `notary`
 *   bucket with their rows ({@link storeDocuments}: one transaction, no row without its file);
 * - step 3, deCode: the user's extraction code (spec 01 §2.5) authorises the office to read the order's evidences;
 * - step 4, payment, is in `platform/notary/payment.ts`;
 * - a signed link to a document or the notarial certificate ({@link documentRow});
 * - the refund of a paid order the office has not accepted ({@link refundOrder}), by the user's end operation or
 *   the office's termination.
 * Every call is scoped to the owner: another user's order reads as not found (404).
 */
import fsp from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  NOTARY_DOCUMENTS,
  type NotaryDocumentData,
  NotaryMsg,
  NotaryPay,
  NotaryStep,
  type NotaryStepCode,
  notaryType,
} from '../../contract/notary.ts';
import { safeEqual } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newObjectKey, StagedPuts } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';
import { applicationForm } from './application.ts';
import type { NotaryDocumentRow, NotaryOrderRowDb } from './schema.ts';
import { isOpenOrder, orderEvidences, requireOrder } from './service.ts';

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/**
 * The step after `done` for `order`: the next one, except that a paid order (asked by the office to redo a step)
 * skips the payment.
 */
export function stepAfter(order: Pick<NotaryOrderRowDb, 'pay'>, done: NotaryStepCode): NotaryStepCode {
  const next = Math.min(done + 1, NotaryStep.done) as NotaryStepCode;
  return next === NotaryStep.pay && Number(order.pay) === NotaryPay.paid ? NotaryStep.done : next;
}

/**
 * The open order `orderId` of the user, at `step` or past it.
 * @throws ApiError 404 orderNotFound; 400 orderClosed; 400 stepNotReached before `step`
 */
export async function openOrderAt(
  db: Kysely<Database>,
  userId: number,
  orderId: number,
  step: NotaryStepCode,
): Promise<NotaryOrderRowDb> {
  const order = await requireOrder(db, userId, orderId);
  if (!isOpenOrder(order)) throw bad(NotaryMsg.orderClosed);
  if (Number(order.step) < step) throw bad(NotaryMsg.stepNotReached);
  return order;
}

/** The user's default seal as a data URL, or null (no seal, or its file is gone). */
async function defaultSeal(db: Kysely<Database>, seals: FileBucket, userId: number): Promise<string | null> {
  const seal = await db
    .selectFrom('signatures')
    .select('storage_key')
    .where('user_id', '=', userId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  if (!seal) return null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of seals.get(seal.storage_key)) chunks.push(chunk as Buffer);
    return `data:image/png;base64,${Buffer.concat(chunks).toString('base64')}`;
  } catch {
    return null;
  }
}

/**
 * What the four documents of the user's order print (from step 2 on; the applicant in full: the answer goes to the
 * owner only, and the documents name them).
 * @throws as {@link openOrderAt} (a closed order still answers once signed: its documents stay printable)
 */
export async function documentData(
  db: Kysely<Database>,
  seals: FileBucket,
  userId: number,
  orderId: number,
): Promise<NotaryDocumentData> {
  const order = await requireOrder(db, userId, orderId);
  if (Number(order.step) < NotaryStep.signature) throw bad(NotaryMsg.stepNotReached);
  const [app, user, evidences, seal, signed] = await Promise.all([
    db
      .selectFrom('notary_applications')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow(),
    db.selectFrom('users').select('mobile').where('id', '=', userId).executeTakeFirstOrThrow(),
    orderEvidences(db, Number(order.id))
      .select(['e.baoquan', 'e.title', 'e.file_name', 'e.created_at', 'e.sha256'])
      .execute(),
    defaultSeal(db, seals, userId),
    db
      .selectFrom('notary_documents')
      .select('id')
      .where('order_id', '=', order.id)
      .where('doc_type', '=', 1)
      .executeTakeFirst(),
  ]);
  return {
    orderNo: order.order_no,
    type: Number(order.type),
    typeName: notaryType(Number(order.type))?.name ?? '',
    addTime: formatBeijing(Number(order.created_at)),
    applicant: { kind: app.applicant_kind, name: app.applicant_name, idNumber: app.applicant_id_number },
    form: applicationForm(app),
    mobile: user.mobile,
    evidences: evidences.map((e) => ({
      baoquan: e.baoquan,
      title: e.title,
      name: e.file_name,
      saveTime: formatBeijing(Number(e.created_at)),
      fileHash: e.sha256,
    })),
    seal,
    money: Number(order.points),
    signed: signed !== undefined,
  };
}

/** True when the file at `path` starts as a PDF does (`%PDF-`). */
export async function isPdf(path: string): Promise<boolean> {
  const fh = await fsp.open(path, 'r');
  try {
    const head = Buffer.alloc(5);
    await fh.read(head, 0, 5, 0);
    return head.toString('latin1') === '%PDF-';
  } finally {
    await fh.close();
  }
}

/** The multipart field of document `type`: `doc1` … `doc4`. */
export const documentField = (type: number): string => `doc${type}`;

/**
 * Stores the four signed documents of step 2 (`files[i].field` = `doc1`…`doc4`, each a PDF) and moves the order to
 * step 3, in the user's transaction; files stored for a transaction that fails are deleted again.
 * @throws ApiError 404 orderNotFound; 400 orderClosed, stepNotReached, documentsSigned (past step 2),
 *   documentsInvalid (not exactly the four PDFs)
 */
export async function storeDocuments(
  pdb: PlatformDb,
  bucket: FileBucket,
  userId: number,
  orderId: number,
  files: readonly (ReceivedFile & { field: string })[],
  now: number,
): Promise<void> {
  const byField = new Map(files.map((f) => [f.field, f]));
  const docs = NOTARY_DOCUMENTS.map((d) => ({ type: d.type, file: byField.get(documentField(d.type)) }));
  if (files.length !== docs.length || docs.some((d) => !d.file)) throw bad(NotaryMsg.documentsInvalid);
  for (const d of docs) if (!(await isPdf(d.file!.path))) throw bad(NotaryMsg.documentsInvalid);
  const staged = new StagedPuts(bucket);
  try {
    await withUserTransaction(pdb, userId, async (trx) => {
      const order = await openOrderAt(trx, userId, orderId, NotaryStep.signature);
      if (Number(order.step) !== NotaryStep.signature) throw bad(NotaryMsg.documentsSigned);
      for (const d of docs) {
        const key = newObjectKey();
        await trx
          .insertInto('notary_documents')
          .values({
            order_id: Number(order.id),
            doc_type: d.type,
            storage_key: key,
            file_size: d.file!.size,
            sha256: d.file!.sha256,
            created_at: now,
          })
          .execute();
        await staged.put(d.file!.path, key);
      }
      await trx
        .updateTable('notary_orders')
        .set({ step: stepAfter(order, NotaryStep.signature), updated_at: now })
        .where('id', '=', order.id)
        .execute();
    });
  } catch (err) {
    await staged.discard();
    throw err;
  }
}

/**
 * Step 3: the user's extraction code authorises the notary office to read the order's evidences; the order moves
 * to step 4 (or 5 when already paid). Once authorised, a second call changes nothing.
 * @throws ApiError 404 orderNotFound; 400 orderClosed, stepNotReached, codeWrong
 */
export async function authorize(
  pdb: PlatformDb,
  userId: number,
  orderId: number,
  code: string,
  now: number,
): Promise<void> {
  await withUserTransaction(pdb, userId, async (trx) => {
    const order = await openOrderAt(trx, userId, orderId, NotaryStep.deCode);
    const user = await trx
      .selectFrom('users')
      .select('extract_code')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (!user.extract_code || !safeEqual(code, user.extract_code)) throw bad(NotaryMsg.codeWrong);
    if (Number(order.step) !== NotaryStep.deCode) return;
    await trx
      .updateTable('notary_orders')
      .set({ authorized_at: now, step: stepAfter(order, NotaryStep.deCode), updated_at: now })
      .where('id', '=', order.id)
      .execute();
  });
}

/**
 * The stored document `type` (1–4, or 5 the notarial certificate) of the user's order.
 * @throws ApiError 404 orderNotFound; 404 documentNotFound when it is not (yet) there
 */
export async function documentRow(
  db: Kysely<Database>,
  userId: number,
  orderId: number,
  type: number,
): Promise<NotaryDocumentRow> {
  const order = await requireOrder(db, userId, orderId);
  const doc = await db
    .selectFrom('notary_documents')
    .selectAll()
    .where('order_id', '=', order.id)
    .where('doc_type', '=', type)
    .executeTakeFirst();
  if (!doc) throw new ApiError(ApiCode.NOT_FOUND, NotaryMsg.documentNotFound);
  return doc;
}

/** The row of stored document `id`, whoever owns it (the signed link route has checked the signature). */
export function findDocument(db: Kysely<Database>, id: number): Promise<NotaryDocumentRow | undefined> {
  return db.selectFrom('notary_documents').selectAll().where('id', '=', id).executeTakeFirst();
}
