/**
 * /organization-kyc and /kyc-info (title 基本设置) (spec 02 "Enterprise KYC screen", §3, §4, §5): the enterprise
 * verification in five sections: 企业资质, 对公账户, 联系人 (name and phone read-only: the account's), 授权经办人 (with
 * the power-of-attorney template /kyc/authorization-template) and, at userStatus 3 only, API 信息 (AppID and
 * SecurityKey: the full key once, masked afterwards; 重置密钥 after a <details> confirmation).
 * Editable at userStatus 1 and 4; at 4 the form and images start empty again (spec 02 §4) under the failure banner
 * with the operator's remark. Read-only with the status banner at 2 and 3. Images png/jpg/jpeg ≤ 20 MB each.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from 'react-router';
import type { Route } from './+types/enterprise';
import {
  isKycEditable,
  isSuccess,
  KycExtraPaths,
  KycMsg,
  KycPaths,
  Msg,
  type AuthInfo,
  type KycImageInput,
} from '../../contract/index.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import {
  ENTERPRISE_IMAGES,
  EnterpriseClientForm,
  EnterpriseForm,
  KycText,
  UNCHANGED_IMAGE,
  withKeptImages,
  type EnterpriseFields,
} from './kyc-forms.ts';
import {
  BodyTooLarge,
  loadAuthInfo,
  multipartOf,
  pagePath,
  readFormDataCapped,
  redirectToOwnType,
} from './kyc.server.ts';
import { ImageInput, InfoRows, StatusBanner, Thumb } from './kyc-ui.tsx';
import { ConfirmAction } from '../shell/confirm-action.tsx';

export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${location.pathname === '/kyc-info' ? '基本设置' : '企业实名认证'} - 存证云` },
];

/** Four images of at most 20 MB and the text fields, with room for the multipart framing. */
const BODY_CAP = 4 * 20 * 1024 * 1024 + 1024 * 1024;
const IMAGE_ACCEPT = 'image/png,image/jpeg,.png,.jpg,.jpeg';
const IMAGE_HINT = '支持 png、jpg、jpeg 格式，大小不超过20M。';

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
type TextField = (typeof TEXT_FIELDS)[number];
type ImageField = (typeof ENTERPRISE_IMAGES)[number];

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

export async function loader({ request, context }: Route.LoaderArgs) {
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

function imagePart(v: KycImageInput): string | Blob {
  return typeof v === 'string' ? UNCHANGED_IMAGE : (v as Blob);
}

export async function action({ request, context }: Route.ActionArgs) {
  let formData: FormData;
  try {
    formData = await readFormDataCapped(request, BODY_CAP);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      const result: SubmissionResult<string[]> = {
        status: 'error',
        error: { '': [KycMsg.enterpriseImageTooLarge] },
      };
      return data({ result, rotatedKey: null, rotateError: null }, { status: 413 });
    }
    throw err;
  }
  await validateCsrf(formData, request, context);
  if (formData.get('intent') === 'rotate') {
    // The new key is shown in this response only (not carried through a redirect or a URL): it is a secret.
    const res = await authedCall<{ securityKey: string }>(request, context, KycExtraPaths.rotateSecurityKey, {
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

type LoaderData = Awaited<ReturnType<typeof loader>>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="kyc-section">
      <legend className="section-title">{title}</legend>
      {children}
    </fieldset>
  );
}

const TemplateLink = (
  <>
    {' '}
    <Link to="/kyc/authorization-template" target="_blank" reloadDocument>
      下载授权委托书模板
    </Link>
  </>
);

function EnterpriseEditForm({ d }: { d: LoaderData }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm<EnterpriseFields, z.output<typeof EnterpriseClientForm>>({
    id: 'kyc-enterprise',
    lastResult: actionData?.result,
    defaultValue: d.values,
    onValidate: ({ formData }) =>
      parseWithZod(withKeptImages(formData, ENTERPRISE_IMAGES), { schema: EnterpriseClientForm }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  const text = (
    name: TextField,
    label: string,
    extra: { maxLength?: number; type?: 'text' | 'tel' | 'date' } = {},
  ) => (
    <Field label={label} id={fields[name].id} errors={fields[name].errors}>
      <input
        {...getInputProps(fields[name], { type: extra.type ?? 'text' })}
        maxLength={extra.maxLength}
        autoComplete="off"
      />
    </Field>
  );
  const image = (name: ImageField, label: string, extra?: ReactNode) => (
    <ImageInput
      name={name}
      id={fields[name].id}
      label={label}
      current={d.images[name]}
      hint={IMAGE_HINT}
      errors={fields[name].errors}
      accept={IMAGE_ACCEPT}
      extra={extra}
    />
  );
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="card kyc-form"
      noValidate
    >
      <CsrfInput />
      <Section title="企业资质">
        {text('name', '企业名称', { maxLength: 100 })}
        {text('code', '统一社会信用代码', { maxLength: 18 })}
        {text('address', '企业地址', { maxLength: 200 })}
        {text('legalName', '法定代表人姓名', { maxLength: 50 })}
        {image('license', '营业执照')}
      </Section>
      <Section title="对公账户">
        {text('account', '开户名称', { maxLength: 100 })}
        {text('bank', '开户银行', { maxLength: 100 })}
        {text('bankNo', '银行账号', { maxLength: 30 })}
      </Section>
      <Section title="联系人">
        <InfoRows
          rows={[
            ['联系人姓名', d.contact.name],
            ['联系人手机号', d.contact.phone],
          ]}
        />
        {text('mobileReserve', '预留手机号', { type: 'tel', maxLength: 11 })}
        {text('contactIdcard', '联系人身份证号', { maxLength: 18 })}
      </Section>
      <Section title="授权经办人">
        {text('authorName', '经办人姓名', { maxLength: 16 })}
        <fieldset className={fields.authorSex.errors ? 'field field-invalid' : 'field'}>
          <legend>经办人性别</legend>
          <label className="radio">
            <input
              {...getInputProps(fields.authorSex, { type: 'radio', value: '男' })}
              id={`${fields.authorSex.id}-m`}
            />{' '}
            男
          </label>
          <label className="radio">
            <input
              {...getInputProps(fields.authorSex, { type: 'radio', value: '女' })}
              id={`${fields.authorSex.id}-f`}
            />{' '}
            女
          </label>
          {fields.authorSex.errors ? (
            <div className="field-error" role="alert">
              {fields.authorSex.errors[0]}
            </div>
          ) : null}
        </fieldset>
        {text('authorBrith', '出生日期', { type: 'date' })}
        {text('authorPhone', '经办人手机号', { type: 'tel', maxLength: 11 })}
        {text('authorIdcard', '经办人身份证号', { maxLength: 18 })}
        {image('file', '授权委托书', TemplateLink)}
        {image('authorFront', '经办人身份证正面照片')}
        {image('authorBack', '经办人身份证反面照片')}
      </Section>
      <FormErrors errors={form.errors} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? '正在提交…' : '提交认证'}
      </button>
    </Form>
  );
}

function ReadOnly({ d }: { d: LoaderData }) {
  const v = d.values;
  const img = (name: ImageField, label: string): [string, ReactNode] => [
    label,
    <Thumb url={d.images[name]} label={label} />,
  ];
  return (
    <div className="card kyc-readonly">
      <h2 className="section-title">企业资质</h2>
      <InfoRows
        rows={[
          ['企业名称', v.name],
          ['统一社会信用代码', v.code],
          ['企业地址', v.address],
          ['法定代表人姓名', v.legalName],
          img('license', '营业执照'),
        ]}
      />
      <h2 className="section-title">对公账户</h2>
      <InfoRows
        rows={[
          ['开户名称', v.account],
          ['开户银行', v.bank],
          ['银行账号', <span className="mono">{v.bankNo}</span>],
        ]}
      />
      <h2 className="section-title">联系人</h2>
      <InfoRows
        rows={[
          ['联系人姓名', d.contact.name],
          ['联系人手机号', d.contact.phone],
          ['预留手机号', v.mobileReserve],
          ['联系人身份证号', <span className="mono">{v.contactIdcard}</span>],
        ]}
      />
      <h2 className="section-title">授权经办人</h2>
      <InfoRows
        rows={[
          ['经办人姓名', v.authorName],
          ['经办人性别', v.authorSex],
          ['出生日期', v.authorBrith],
          ['经办人手机号', v.authorPhone],
          ['经办人身份证号', <span className="mono">{v.authorIdcard}</span>],
          img('file', '授权委托书'),
          img('authorFront', '经办人身份证正面照片'),
          img('authorBack', '经办人身份证反面照片'),
        ]}
      />
    </div>
  );
}

function ApiInfo({ api }: { api: NonNullable<LoaderData['api']> }) {
  const actionData = useActionData<typeof action>();
  const rotated = actionData?.rotatedKey ?? null;
  const full = rotated ?? (api.shown ? api.securityKey : null);
  return (
    <div className="card kyc-api">
      <h2 className="section-title">API 信息</h2>
      <InfoRows
        rows={[
          [
            'AppID',
            <span className="mono" data-testid="app-id">
              {api.appId}
            </span>,
          ],
          [
            'SecurityKey',
            <span className="mono extract-code" data-testid="security-key">
              {full ?? api.securityKey}
            </span>,
          ],
        ]}
      />
      {full ? (
        <p className="form-notice" role="status">
          {rotated ? '密钥已重置。' : null}
          {KycText.keyShownOnce}
        </p>
      ) : null}
      <FormErrors errors={actionData?.rotateError ? [actionData.rotateError] : undefined} />
      <ConfirmAction
        className="row-actions"
        summary="重置密钥"
        question="重置后原 SecurityKey 立即失效，使用它的接口调用将被拒绝。确认重置？"
        confirm="确认重置"
        intent="rotate"
        tone="danger"
      />
    </div>
  );
}

function Banner({ d }: { d: LoaderData }) {
  if (d.userStatus === '2') {
    return (
      <StatusBanner tone="info" text={KycText.enterpriseReviewing}>
        <p>{KycText.reviewHint}</p>
      </StatusBanner>
    );
  }
  if (d.userStatus === '3') return <StatusBanner tone="success" text={KycText.enterpriseVerified} />;
  if (d.userStatus === '4')
    return <StatusBanner tone="error" text={KycText.enterpriseFailed} remark={d.checkRemark} />;
  return null;
}

export default function EnterpriseKyc() {
  const d = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const infoPage = pathname === '/kyc-info';
  return (
    <section className="page kyc-page">
      {infoPage ? null : (
        <p className="breadcrumb">
          <Link to="/attestation-list">返回</Link> / 企业实名认证
        </p>
      )}
      <h1>{infoPage ? '基本设置' : '企业实名认证'}</h1>
      <FormNotice text={d.notice} />
      <Banner d={d} />
      {d.editable ? <EnterpriseEditForm d={d} /> : <ReadOnly d={d} />}
      {d.api ? <ApiInfo api={d.api} /> : null}
    </section>
  );
}
