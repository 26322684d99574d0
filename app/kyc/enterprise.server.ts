/**
 * Server side of /organization-kyc and /kyc-info (spec 02 "Enterprise KYC screen", §3, §4, §5): what the page shows
 * ({@link loadEnterprisePage}) and its two actions ({@link submitEnterprise}): the submission → `companyAuthorize`
 * (multipart) → the page again with the "under review" banner, and 重置密钥 (rotating the SecurityKey of a verified
 * enterprise, decision 011).
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { type AuthInfo, isKycEditable, KycMsg, KycPaths } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { formErrorResult } from '../lib/form-result.ts';
import { EnterpriseForm } from './kyc-forms.ts';
import { ENTERPRISE_IMAGES, withKeptImages } from './kyc-text.ts';
import {
  imagePart,
  loadAuthInfo,
  multipartOf,
  pagePath,
  readKycForm,
  redirectToOwnType,
} from './kyc.server.ts';

/** Four images of at most 20 MB (spec 02 §5 "Images") and the text fields, with room for the multipart framing. */
const BODY_CAP = 4 * 20 * 1024 * 1024 + 1024 * 1024;

/** The text fields of the submit form (spec 02 §3 "Enterprise submit form"). */
const TEXT_FIELDS = [
  'name',
  'code',
  'address',
  'legalName',
  'account',
  'bank',
  'bankNo',
  'mobileReserve',
  'contactIdcard',
  'authorName',
  'authorSex',
  'authorBrith',
  'authorPhone',
  'authorIdcard',
] as const;
/** A text field's name in the submit form. */
export type TextField = (typeof TEXT_FIELDS)[number];
/** An image field's name in the submit form. */
export type ImageField = (typeof ENTERPRISE_IMAGES)[number];

/** The submit form's names (spec 02 §3 "Enterprise submit form") from the KycInfo names of getAuthInfo. */
function valuesOf(info: AuthInfo | null): Record<TextField, string> {
  return {
    name: info?.company ?? '',
    code: info?.taxNumber ?? '',
    address: info?.address ?? '',
    legalName: info?.legalName ?? '',
    account: info?.accountName ?? '',
    bank: info?.accountBank ?? '',
    bankNo: info?.accountNo ?? '',
    mobileReserve: info?.mobileReserve ?? '',
    contactIdcard: info?.contactIdcard ?? '',
    authorName: info?.authorName ?? '',
    authorSex: info?.authorSex ?? '',
    authorBrith: info?.authorBrith ?? '',
    authorPhone: info?.authorPhone ?? '',
    authorIdcard: info?.authorIdcard ?? '',
  };
}
function imagesOf(info: AuthInfo | null): Record<ImageField, string> {
  return {
    license: info?.license ?? '',
    file: info?.file ?? '',
    authorFront: info?.authorFront ?? '',
    authorBack: info?.authorBack ?? '',
  };
}

/**
 * The page's data: the submission (read-only at userStatus 2 and 3; empty while editable, since at 4 the form and
 * images start again, spec 02 §4), the contact (the account's name and mobile), the API credentials of a verified
 * enterprise, and the "submitted" notice after the redirect of a submission.
 * @throws the redirect of {@link redirectToOwnType}, or the error page when the platform fails.
 */
export async function loadEnterprisePage(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const info = await loadAuthInfo(request, context);
  redirectToOwnType(info, 2);
  const editable = isKycEditable(info.userStatus);
  // At 4 the form and images are reset for the resubmission (spec 02 §4); at 1 nothing was submitted.
  const shown = !editable && Number(info.status) === 2 ? info : null;
  return {
    userStatus: info.userStatus,
    checkRemark: info.checkRemark,
    editable,
    values: valuesOf(shown),
    images: imagesOf(shown),
    contact: { name: info.contactName || info.userName, phone: info.contactPhone || info.mobile },
    api:
      info.userStatus === '3' && Number(info.status) === 2
        ? { appId: info.appId, securityKey: info.securityKey, shown: info.securityKeyShown }
        : null,
    notice: url.searchParams.get('done') === 'submitted' ? Msg.submitted : null,
  };
}

/** What {@link loadEnterprisePage} gives the page. */
export type EnterprisePage = Awaited<ReturnType<typeof loadEnterprisePage>>;

/**
 * Handles the submission (`intent=submit`, a hidden field of the form) or `intent=rotate`; any other intent, missing
 * included, answers 400 请求参数错误 without a call. Answers `{ result, rotatedKey, rotateError }`: `result` a Conform
 * submission result (status 400 for invalid input or a platform refusal, 413 when the images exceed the body cap),
 * `rotatedKey` the new SecurityKey (shown in this response only: a secret is never carried through a redirect or a
 * URL). Redirects after a successful submission.
 */
export async function submitEnterprise(request: Request, context: AppLoadContext) {
  const formData = await readKycForm(request, context, BODY_CAP);
  if (!formData) {
    const result = formErrorResult(KycMsg.enterpriseImageTooLarge);
    return data({ result, rotatedKey: null, rotateError: null }, { status: 413 });
  }
  const intent = formData.get('intent');
  // Two intents: 重置密钥 and the form's own `submit`; anything else, missing included, is refused before any call.
  if (intent !== 'rotate' && intent !== 'submit') {
    return data(
      { result: formErrorResult(Msg.badRequest), rotatedKey: null, rotateError: null },
      { status: 400 },
    );
  }
  if (intent === 'rotate') {
    const res = await authedCall<{ securityKey: string }>(request, context, KycPaths.rotateSecurityKey, {
      method: 'POST',
    });
    if (!isSuccess(res.code))
      return data({ result: undefined, rotatedKey: null, rotateError: res.msg }, { status: 400 });
    return { result: undefined, rotatedKey: res.data.securityKey, rotateError: null };
  }
  const submission = await parseWithZod(withKeptImages(formData, ENTERPRISE_IMAGES), {
    schema: EnterpriseForm,
    async: true,
  });
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), rotatedKey: null, rotateError: null }, { status: 400 });
  }
  const v = submission.value;
  const res = await authedCall(request, context, KycPaths.companyAuthorize, {
    method: 'POST',
    stream: multipartOf({
      ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, String(v[f])])),
      license: imagePart(v.license),
      file: imagePart(v.file),
      authorFront: imagePart(v.authorFront),
      authorBack: imagePart(v.authorBack),
    }),
  });
  if (!isSuccess(res.code)) {
    return data(
      { result: submission.reply({ formErrors: [res.msg] }), rotatedKey: null, rotateError: null },
      { status: 400 },
    );
  }
  return redirect(`${pagePath(request)}?done=submitted`);
}
