/**
 * KYC submissions as stored (spec 02 §3 KycInfo and the submit payloads): the image fields of each kind,
 * the private image store, signed image URLs, and the mapping of a user's stored submission to the `KycDetails` of
 * `getAuthInfo` with ID and bank numbers masked (contract/kyc.ts) unless the owner edits their own form.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type KycDetails, KycMsg, maskBankNumber, maskIdNumber } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from '../account/schema.ts';
import type { KycImageRow, KycProfileRow } from './schema.ts';
import type { UrlSigner } from '../files/signer.ts';
import type { FileBucket } from '../files/storage.ts';
import { maskedSecurityKey } from './security-key.ts';
import { preparedQuery } from '../db/prepared.ts';

/** Which kind a submission is: the personal (photo or face) or the enterprise form. */
export type KycKind = 'personal' | 'enterprise';

/**
 * The image fields of each kind with their "please upload" messages and labels (spec 02 §2, §5), in form order.
 * The messages are those of contract/kyc.ts's submit schemas.
 */
export const KYC_IMAGE_FIELDS: Readonly<
  Record<KycKind, readonly { field: string; label: string; missing: string }[]>
> = {
  enterprise: [
    { field: 'license', label: '营业执照', missing: Msg.required('营业执照') },
    { field: 'file', label: '授权委托书', missing: Msg.required('授权委托书') },
    { field: 'authorFront', label: '经办人身份证正面', missing: Msg.required('经办人身份证正面照片') },
    { field: 'authorBack', label: '经办人身份证反面', missing: Msg.required('经办人身份证反面照片') },
  ],
  personal: [
    { field: 'authorFront', label: '身份证正面', missing: KycMsg.uploadFront },
    { field: 'authorBack', label: '身份证反面', missing: KycMsg.uploadBack },
    { field: 'authorHand', label: '手持身份证', missing: KycMsg.uploadHand },
  ],
};

/** Seconds a signed KYC image URL lives (short: these are ID images). */
export const KYC_IMAGE_URL_TTL = 300;
/** Path prefix of the image route. */
export const KYC_IMAGE_PREFIX = '/api/kyc/image/';
/** Signature purpose of KYC image URLs. */
export const KYC_IMAGE_PURPOSE = 'kyc-image';

/** The private image bucket of `app.files` (`${dataDir}/kyc` locally; never public: served by the signed route). */
export function kycStorage(app: FastifyInstance): FileBucket {
  return app.files.bucket('kyc');
}

/** A signed, expiring relative URL of KYC image `id` (unix seconds `now`). */
export function kycImageUrl(signer: UrlSigner, id: number, now: number): string {
  return `${KYC_IMAGE_PREFIX}${id}?${signer.signedQuery(KYC_IMAGE_PURPOSE, String(id), now, KYC_IMAGE_URL_TTL)}`;
}

/** The stored profile and current images of `userId` (undefined profile when never submitted). */
export async function loadKyc(
  db: Kysely<Database>,
  userId: number,
): Promise<{ profile: KycProfileRow | undefined; images: KycImageRow[] }> {
  const [[profile], images] = await Promise.all([profileOf(db, { userId }), imagesOf(db, { userId })]);
  return { profile, images };
}

/** The two reads of {@link loadKyc}, prepared once (platform/db/prepared.ts): every page's user info makes them. */
const profileOf = preparedQuery<{ userId: number }, KycProfileRow>((db, param) =>
  db.selectFrom('kyc_profiles').selectAll().where('user_id', '=', param('userId')),
);
const imagesOf = preparedQuery<{ userId: number }, KycImageRow>((db, param) =>
  db.selectFrom('kyc_images').selectAll().where('user_id', '=', param('userId')),
);

/** The stored text fields of a profile (JSON of the submit payload's text fields). */
export function profileFields(profile: KycProfileRow | undefined): Record<string, string> {
  if (!profile) return {};
  try {
    const v = JSON.parse(profile.fields_json) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * Maps a user's stored submission to `KycDetails` (contract/api/kyc-api.ts).
 * @param opts.unmasked ID and bank numbers in full (only for the owner's own editable form)
 * @param opts.fullSecurityKey the key to show: the full key when this call issues it, else undefined (the mask of
 *   the stored hint, kyc/security-key.ts)
 */
export function toKycDetails(
  user: UserRow,
  kyc: { profile: KycProfileRow | undefined; images: KycImageRow[] },
  signer: UrlSigner,
  now: number,
  opts: { unmasked: boolean; fullSecurityKey?: string },
): KycDetails {
  const f = profileFields(kyc.profile);
  const id = (v: string | undefined) => (opts.unmasked ? (v ?? '') : maskIdNumber(v ?? ''));
  const image = (field: string) => {
    const row = kyc.images.find((i) => i.field === field);
    return row ? kycImageUrl(signer, Number(row.id), now) : '';
  };
  const enterprise = kyc.profile?.kind === 'enterprise';
  return {
    company: enterprise ? (f.name ?? '') : '',
    taxNumber: f.code ?? '',
    address: f.address ?? '',
    legalName: f.legalName ?? '',
    license: image('license'),
    accountName: f.account ?? '',
    accountBank: f.bank ?? '',
    accountNo: opts.unmasked ? (f.bankNo ?? '') : maskBankNumber(f.bankNo ?? ''),
    contactName: enterprise ? f.authorName || user.user_name : user.user_name,
    contactPhone: user.mobile,
    mobileReserve: f.mobileReserve ?? '',
    contactIdcard: id(f.contactIdcard),
    authorName: f.authorName ?? '',
    authorSex: f.authorSex ?? '',
    authorBrith: f.authorBrith ?? '',
    authorPhone: f.authorPhone ?? '',
    authorIdcard: id(f.authorIdcard),
    file: image('file'),
    authorFront: image('authorFront'),
    authorBack: image('authorBack'),
    authorHand: image('authorHand'),
    idCard: id(f.idCard),
    sex: f.sex ?? '',
    appId: kyc.profile?.app_id ?? '',
    securityKey: opts.fullSecurityKey ?? maskedSecurityKey(kyc.profile?.security_key),
    securityKeyShown: opts.fullSecurityKey !== undefined,
    submittedAt: Number(kyc.profile?.submitted_at ?? 0),
  };
}
