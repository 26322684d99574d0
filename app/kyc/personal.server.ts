/**
 * Server side of /personage-kyc and /person-info (spec 02 "Personal KYC screen", §3, §4, §5): what the page shows
 * ({@link loadPersonalPage}) and its two submissions ({@link submitPersonal}): the face method → `aliIdentification`
 * → the QR page `/personage-face-kyc`; the photo method → `perAuthorize` (multipart) → the page again with the
 * "under review" banner (spec 02 §4 "After a successful KYC submit").
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { AuthType, type FaceStartData, isKycEditable, KycMsg, KycPaths } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { formErrorResult } from '../lib/form-result.ts';
import { PersonalFaceForm, PersonalPhotoForm } from './kyc-forms.ts';
import { PERSONAL_IMAGES, withKeptImages } from './kyc-text.ts';
import {
  faceUrl,
  imagePart,
  loadAuthInfo,
  multipartOf,
  pagePath,
  readKycForm,
  redirectToOwnType,
} from './kyc.server.ts';

/** The verification method: Alipay face recognition or the ID-card photos. */
export type Method = 'photo' | 'face';

/** Three photos of at most 3 MB (spec 02 §5 "Images") and the text fields, with room for the multipart framing. */
const BODY_CAP = 3 * 3 * 1024 * 1024 + 1024 * 1024;

/**
 * The page's data. `method` comes from `?method=face|photo`, else (at userStatus 4) the method used before;
 * `values`/`images` hold the earlier submission of a personal account (4: resubmit with them; 2/3: read-only), else
 * empty strings. `notice` is the "submitted" message after the redirect of a photo submission.
 * @throws the redirect of {@link redirectToOwnType}, or the error page when the platform fails.
 */
export async function loadPersonalPage(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const info = await loadAuthInfo(request, context);
  redirectToOwnType(info, 1);
  const editable = isKycEditable(info.userStatus);
  const authType = Number(info.authType);
  const prior: Method | null = authType === 3 ? 'face' : authType === 1 ? 'photo' : null;
  const q = url.searchParams.get('method');
  const method: Method | null = q === 'photo' || q === 'face' ? q : info.userStatus === '4' ? prior : null;
  // Earlier values only for a personal account that submitted (4: resubmit with them; 2/3: read-only).
  const mine = Number(info.status) === 1 && info.userStatus !== '1';
  return {
    userStatus: info.userStatus,
    authType,
    checkRemark: info.checkRemark,
    editable,
    method,
    values: mine
      ? {
          userName: info.userName,
          idCard: info.idCard,
          sex: info.sex,
          address: info.address,
        }
      : { userName: '', idCard: '', sex: '', address: '' },
    images: mine
      ? { authorFront: info.authorFront, authorBack: info.authorBack, authorHand: info.authorHand }
      : { authorFront: '', authorBack: '', authorHand: '' },
    notice: url.searchParams.get('done') === 'submitted' ? Msg.submitted : null,
  };
}

/** What {@link loadPersonalPage} gives the page. */
export type PersonalPage = Awaited<ReturnType<typeof loadPersonalPage>>;

/**
 * Handles a submission (form field `type`: face or photo). Answers `{ method, result }` (a Conform submission
 * result) with status 400 for invalid input or a platform refusal, 413 when the photos exceed the body cap;
 * redirects on success.
 */
export async function submitPersonal(request: Request, context: AppLoadContext) {
  const formData = await readKycForm(request, context, BODY_CAP);
  if (!formData) {
    const method: Method = 'photo';
    return data({ method, result: formErrorResult(KycMsg.personalImageTooLarge) }, { status: 413 });
  }
  if (formData.get('type') === AuthType.face) {
    const submission = parseWithZod(formData, { schema: PersonalFaceForm });
    if (submission.status !== 'success')
      return data({ method: 'face' as const, result: submission.reply() }, { status: 400 });
    const { username, idCard, address } = submission.value;
    const res = await authedCall<FaceStartData>(request, context, KycPaths.aliIdentification, {
      body: { username, idCard, type: AuthType.face, address },
    });
    if (!isSuccess(res.code) || !res.data?.certify_id) {
      const result = submission.reply({ formErrors: [res.msg] });
      return data({ method: 'face' as const, result }, { status: 400 });
    }
    return redirect(faceUrl(context, res.data.certify_id, res.data.qrContent, res.data.expiresAt));
  }
  const submission = await parseWithZod(withKeptImages(formData, PERSONAL_IMAGES), {
    schema: PersonalPhotoForm,
    async: true,
  });
  if (submission.status !== 'success')
    return data({ method: 'photo' as const, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const res = await authedCall(request, context, KycPaths.perAuthorize, {
    method: 'POST',
    stream: multipartOf({
      userName: v.userName,
      idCard: v.idCard,
      sex: v.sex,
      type: AuthType.photo,
      address: v.address,
      consent: '1',
      authorFront: imagePart(v.authorFront),
      authorBack: imagePart(v.authorBack),
      authorHand: imagePart(v.authorHand),
    }),
  });
  if (!isSuccess(res.code)) {
    const result = submission.reply({ formErrors: [res.msg] });
    return data({ method: 'photo' as const, result }, { status: 400 });
  }
  return redirect(`${pagePath(request)}?done=submitted`);
}
