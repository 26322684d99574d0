/**
 * The KYC forms' validation in the browser, loaded when the user first reaches a form (shell/lazy-validation.ts;
 * decision 031: no page's first load carries the contract's zod schemas). The same client schemas as before
 * (kyc-forms.ts: synchronous image checks; the action re-checks everything with the bytes).
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { EnterpriseClientForm, PersonalFaceForm, PersonalPhotoClientForm } from './kyc-forms.ts';
import { ENTERPRISE_IMAGES, PERSONAL_IMAGES, withKeptImages } from './kyc-text.ts';

/** The personal photo form: kept images count as present (`withKeptImages`). */
export const validatePersonalPhoto = (formData: FormData) =>
  parseWithZod(withKeptImages(formData, PERSONAL_IMAGES), { schema: PersonalPhotoClientForm });

/** The personal face form. */
export const validatePersonalFace = (formData: FormData) =>
  parseWithZod(formData, { schema: PersonalFaceForm });

/** The enterprise form: kept images count as present (`withKeptImages`). */
export const validateEnterprise = (formData: FormData) =>
  parseWithZod(withKeptImages(formData, ENTERPRISE_IMAGES), { schema: EnterpriseClientForm });
