/**
 * /personage-kyc and /person-info (spec 02 "Personal KYC screen", §3, §4, §5): the personal verification.
 * The method is chosen first (`?method=face|photo`: radio buttons that navigate with JavaScript, a GET form with
 * 确定 without it). Photo: name, ID number, sex, ID address, three photos (front, back, hand-held, jpg/jpeg/png/gif
 * ≤ 3 MB), consent, 提交 → `perAuthorize` (multipart), then the page reloads with the "under review" banner.
 * Face: name, ID number, address, consent, 下一步 → `aliIdentification`, then the QR page `/personage-face-kyc`.
 * Editable at userStatus 1 and 4 (4 keeps the earlier values and photos, with the failure reason); read-only with
 * the status banner at 2 and 3. Server side in personal.server.ts, the forms in personal-forms.tsx.
 */
import { useLocation } from 'react-router';
import type { Route } from './+types/personal';
import { KycMsg } from '../../contract/kyc-codes.ts';
import { KycText } from './kyc-text.ts';
import { KycPageHead, kycTitle, type KycTitles } from './kyc-page-ui.tsx';
import { FaceForm, MethodChoice, PersonalReadOnly, PhotoForm } from './personal-forms.tsx';
import { loadPersonalPage, submitPersonal, type Method } from './personal.server.ts';

const TITLES: KycTitles = { form: '个人实名认证', info: '认证信息', infoPath: '/person-info' };

export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${kycTitle(TITLES, location.pathname)} - 存证云` },
];

export const loader = ({ request, context }: Route.LoaderArgs) => loadPersonalPage(request, context);
export const action = ({ request, context }: Route.ActionArgs) => submitPersonal(request, context);

export default function PersonalKyc({ loaderData: d, actionData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const method = actionData?.method ?? d.method;
  const lastResult = (m: Method) => (actionData?.method === m ? actionData.result : undefined);
  const verified = d.authType === 3 ? KycText.personalVerifiedFace : KycText.personalVerifiedPhoto;
  return (
    <section className="page narrow kyc-page">
      <KycPageHead
        titles={TITLES}
        page={d}
        texts={{ reviewing: KycText.personalReviewing, verified, failed: KycText.personalFailed }}
      />
      {d.editable ? (
        <>
          <MethodChoice path={pathname} method={method} />
          {method === 'photo' ? <PhotoForm d={d} lastResult={lastResult('photo')} /> : null}
          {method === 'face' ? <FaceForm d={d} lastResult={lastResult('face')} /> : null}
          {method === null ? <p className="muted">{KycMsg.methodRequired}</p> : null}
        </>
      ) : (
        <PersonalReadOnly d={d} />
      )}
    </section>
  );
}
