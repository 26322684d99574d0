/**
 * /organization-kyc and /kyc-info (title 基本设置) (spec 02 "Enterprise KYC screen", §3, §4, §5): the enterprise
 * verification in five sections: 企业资质, 对公账户, 联系人 (name and phone read-only: the account's), 授权经办人 (with
 * the power-of-attorney template /kyc/authorization-template) and, at userStatus 3 only, API 信息 (AppID and
 * SecurityKey: the full key once, masked afterwards; 重置密钥 after a <details> confirmation).
 * Editable at userStatus 1 and 4; at 4 the form and images start empty again (spec 02 §4) under the failure banner
 * with the operator's remark. Read-only with the status banner at 2 and 3. Images png/jpg/jpeg ≤ 20 MB each.
 * Server side in enterprise.server.ts, the form and the views in enterprise-forms.tsx.
 */
import type { Route } from './+types/enterprise';
import { ApiInfo, EnterpriseEditForm, EnterpriseReadOnly } from './enterprise-forms.tsx';
import { loadEnterprisePage, submitEnterprise } from './enterprise.server.ts';
import { KycText } from './kyc-text.ts';
import { KycPageHead, kycTitle, type KycTitles, type StatusTexts } from './kyc-page-ui.tsx';

const TITLES: KycTitles = { form: '企业实名认证', info: '基本设置', infoPath: '/kyc-info' };
const TEXTS: StatusTexts = {
  reviewing: KycText.enterpriseReviewing,
  verified: KycText.enterpriseVerified,
  failed: KycText.enterpriseFailed,
};

export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${kycTitle(TITLES, location.pathname)} - 存证云` },
];

export const loader = ({ request, context }: Route.LoaderArgs) => loadEnterprisePage(request, context);
export const action = ({ request, context }: Route.ActionArgs) => submitEnterprise(request, context);

export default function EnterpriseKyc({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <section className="page kyc-page">
      <KycPageHead titles={TITLES} page={d} texts={TEXTS} />
      {d.editable ? (
        <EnterpriseEditForm d={d} lastResult={actionData?.result} />
      ) : (
        <EnterpriseReadOnly d={d} />
      )}
      {d.api ? (
        <ApiInfo
          api={d.api}
          rotatedKey={actionData?.rotatedKey ?? null}
          rotateError={actionData?.rotateError ?? null}
        />
      ) : null}
    </section>
  );
}
