/**
 * The KYC form schemas (spec 02 §5) as the pages use them: the contract's submit schemas plus the consent checkbox,
 * and synchronous variants for Conform's client validation (the contract's image check reads magic bytes, which is
 * asynchronous; the browser checks presence, size and file name, the action re-checks everything with the bytes).
 * The "unchanged image" convention, the image field names and the pages' texts are in kyc-text.ts, without zod; the
 * browser loads these schemas through kyc-validation.ts on a form's first focus.
 */
import { z } from 'zod';
import {
  isUnchangedImage,
  KYC_IMAGE_RULES,
  type KycImageInput,
  type KycImageKind,
} from '../../contract/kyc-images.ts';
import {
  EnterpriseSubmitBody,
  kycConsent,
  KycMsg,
  PersonalFaceSubmitBody,
  PersonalPhotoSubmitBody,
} from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';

/** An image field checked synchronously in the browser: present (or kept), within the size limit, a known name. */
function clientImageField(kind: KycImageKind, missingMessage: string) {
  const rule = KYC_IMAGE_RULES[kind];
  return z.custom<KycImageInput>().superRefine((v, ctx) => {
    if (isUnchangedImage(v)) return;
    if (typeof Blob === 'undefined' || !(v instanceof Blob) || v.size === 0) {
      ctx.addIssue({ code: 'custom', message: missingMessage });
      return;
    }
    if (v.size > rule.maxBytes) {
      ctx.addIssue({ code: 'custom', message: rule.tooLarge });
      return;
    }
    const name = 'name' in v && typeof v.name === 'string' ? v.name : '';
    const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
    if (name && !rule.extensions.includes(ext)) ctx.addIssue({ code: 'custom', message: rule.badType });
  });
}

/** Personal photo form (server, asynchronous): the submit payload plus the consent checkbox. */
export const PersonalPhotoForm = PersonalPhotoSubmitBody.extend({ consent: kycConsent });
/** Personal photo form, client variant (synchronous image checks). */
export const PersonalPhotoClientForm = PersonalPhotoForm.extend({
  authorFront: clientImageField('personal', KycMsg.uploadFront),
  authorBack: clientImageField('personal', KycMsg.uploadBack),
  authorHand: clientImageField('personal', KycMsg.uploadHand),
});
/** Personal face form (next step to the QR page): the face payload plus the consent checkbox. */
export const PersonalFaceForm = PersonalFaceSubmitBody.extend({ consent: kycConsent });
/** Enterprise form (server, asynchronous) is the contract's schema as is. */
export const EnterpriseForm = EnterpriseSubmitBody;
/** Enterprise form, client variant (synchronous image checks; the birth-date check of the contract stays). */
export const EnterpriseClientForm = EnterpriseSubmitBody.safeExtend({
  license: clientImageField('enterprise', Msg.required('营业执照')),
  file: clientImageField('enterprise', Msg.required('授权委托书')),
  authorFront: clientImageField('enterprise', Msg.required('经办人身份证正面照片')),
  authorBack: clientImageField('enterprise', Msg.required('经办人身份证反面照片')),
});

/** The personal photo form's fields for Conform, named by the schema's keys (text values and files). */
export type PersonalPhotoFields = Record<keyof z.input<typeof PersonalPhotoClientForm>, unknown>;
/** The enterprise form's fields for Conform, named by the schema's keys (text values and files). */
export type EnterpriseFields = Record<keyof z.input<typeof EnterpriseClientForm>, unknown>;
