/**
 * Step 1 of a notarisation order, applicationForm (docs/decisions/034-notary.md): the applicant is
 * the user's verified identity (the KYC submission: a person's name and ID number, or an enterprise's name and unified
 * social credit code; the account's name when no submission is on file), the user fills purpose, place of use,
 * copies, one of their delivery addresses and a remark. Saving copies the applicant and the address into the order
 * and moves it to step 2 (online signature); from then on step 1 reads only. Another user's order or address reads as
 * not found.
 */
import type { Kysely, Selectable } from 'kysely';
import { AddressMsg } from '../../contract/address-codes.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { maskIdNumber } from '../../contract/kyc.ts';
import {
  type ApplicationFormBody,
  type NotaryApplicant,
  type NotaryApplicationData,
  NotaryMsg,
  NotaryStep,
  type NotaryStepCode,
} from '../../contract/notary.ts';
import { ApiError } from '../core/errors.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { profileFields } from '../kyc/profile.ts';
import type { NotaryApplicationsTable } from './schema.ts';
import { isOpenOrder, requireOrder } from './service.ts';

/** The user's verified identity, the ID or credit code in full (callers mask it for answers). */
async function applicantOf(db: Kysely<Database>, userId: number): Promise<NotaryApplicant> {
  const [user, profile] = await Promise.all([
    db.selectFrom('users').select('user_name').where('id', '=', userId).executeTakeFirstOrThrow(),
    db.selectFrom('kyc_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst(),
  ]);
  const f = profileFields(profile);
  if (profile?.kind === 'enterprise') {
    return { kind: 'enterprise', name: f.name || user.user_name, idNumber: f.code ?? '' };
  }
  // The photo submission names the person `userName`, the face submission `username` (spec 02 §3).
  return { kind: 'personal', name: f.userName || f.username || user.user_name, idNumber: f.idCard ?? '' };
}

/** The saved application as the answers show it (the address's region in one string). */
export function applicationForm(
  a: Selectable<NotaryApplicationsTable>,
): NonNullable<NotaryApplicationData['form']> {
  return {
    purpose: a.purpose,
    usePlace: a.use_place,
    copies: Number(a.copies),
    recipient: a.recipient,
    phoneNumber: a.phone_number,
    region: `${a.province} ${a.city} ${a.area}`,
    address: a.address,
    remark: a.remark,
  };
}

/** Step 1 of the user's order `orderId`: the applicant, the saved application or null, whether it may be saved. */
export async function applicationOf(
  db: Kysely<Database>,
  userId: number,
  orderId: number,
): Promise<NotaryApplicationData> {
  const order = await requireOrder(db, userId, orderId);
  const saved = await db
    .selectFrom('notary_applications')
    .selectAll()
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  const applicant = saved
    ? { kind: saved.applicant_kind, name: saved.applicant_name, idNumber: saved.applicant_id_number }
    : await applicantOf(db, userId);
  const step = Number(order.step) as NotaryStepCode;
  return {
    applicant: { ...applicant, idNumber: maskIdNumber(applicant.idNumber) },
    form: saved ? applicationForm(saved) : null,
    editable: isOpenOrder(order) && step === NotaryStep.applicationForm,
    step,
  };
}

/**
 * Saves step 1 of the user's order and moves it to step 2, in one per-user transaction (a second, concurrent save
 * finds it at step 2).
 * @throws ApiError 404 orderNotFound or 地址不存在; 400 orderClosed for a closed order, applicationLocked past step 1
 */
export async function saveApplication(
  pdb: PlatformDb,
  userId: number,
  body: ApplicationFormBody,
  now: number,
): Promise<void> {
  await withUserTransaction(pdb, userId, async (trx) => {
    const order = await requireOrder(trx, userId, body.orderId);
    if (!isOpenOrder(order)) throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.orderClosed);
    if (Number(order.step) !== NotaryStep.applicationForm) {
      throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.applicationLocked);
    }
    const address = await trx
      .selectFrom('addresses')
      .selectAll()
      .where('id', '=', body.addressId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!address) throw new ApiError(ApiCode.NOT_FOUND, AddressMsg.addressNotFound);
    const applicant = await applicantOf(trx, userId);
    await trx
      .insertInto('notary_applications')
      .values({
        order_id: Number(order.id),
        applicant_kind: applicant.kind,
        applicant_name: applicant.name,
        applicant_id_number: applicant.idNumber,
        purpose: body.purpose ?? '', // required by the schema; freeText's type also admits undefined
        use_place: body.usePlace ?? '',
        copies: body.copies,
        recipient: address.name,
        phone_number: address.phone_number,
        province: address.province,
        city: address.city,
        area: address.area,
        address: address.address,
        remark: body.remark ?? '',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .updateTable('notary_orders')
      .set({ step: NotaryStep.signature, updated_at: now })
      .where('id', '=', order.id)
      .execute();
  });
}
