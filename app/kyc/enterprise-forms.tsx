/**
 * The parts of /organization-kyc and /kyc-info (spec 02 "Enterprise KYC screen", §5): the form in its four sections
 * (企业资质, 对公账户, 联系人 with the account's name and phone read-only, 授权经办人 with the power-of-attorney
 * template), the read-only view of a submission, and API 信息 of a verified enterprise (AppID and SecurityKey: the
 * full key once, masked afterwards; 重置密钥 after a <details> confirmation). Images png/jpg/jpeg ≤ 20 MB each.
 */
import { useForm, type SubmissionResult } from '@conform-to/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import { FormErrors } from '../shell/field.tsx';
import type { EnterprisePage, ImageField, TextField } from './enterprise.server.ts';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import type { EnterpriseFields } from './kyc-forms.ts';
import { KycText } from './kyc-text.ts';
import { KycForm, RadioField, SubmitButton, TextInput } from './kyc-page-ui.tsx';
import { ImageInput, InfoRows, Thumb } from './kyc-ui.tsx';

const IMAGE_ACCEPT = 'image/png,image/jpeg,.png,.jpg,.jpeg';
const IMAGE_HINT = '支持 png、jpg、jpeg 格式，大小不超过20M。';

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

/** The submission form (multipart: the images travel with the fields); `lastResult` is the action's last answer. */
export function EnterpriseEditForm({
  d,
  lastResult,
}: {
  d: EnterprisePage;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const validation = useLazyValidation(() => import('./kyc-validation.ts').then((m) => m.validateEnterprise));
  const [form, fields] = useForm<EnterpriseFields>({
    id: 'kyc-enterprise',
    lastResult,
    defaultValue: d.values,
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  const text = (
    name: TextField,
    label: string,
    extra: { maxLength?: number; type?: 'text' | 'tel' | 'date' } = {},
  ) => (
    <TextInput
      label={label}
      field={fields[name]}
      type={extra.type}
      maxLength={extra.maxLength}
      autoComplete="off"
    />
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
    <KycForm form={form} multipart onFocus={validation.onFocus}>
      {/* The submission's intent rides in a field, whatever submits the form (the action refuses any other). */}
      <input type="hidden" name="intent" value="submit" />
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
        <RadioField
          legend="经办人性别"
          field={fields.authorSex}
          options={[
            { value: '男', label: '男', idSuffix: 'm' },
            { value: '女', label: '女', idSuffix: 'f' },
          ]}
        />
        {text('authorBrith', '出生日期', { type: 'date' })}
        {text('authorPhone', '经办人手机号', { type: 'tel', maxLength: 11 })}
        {text('authorIdcard', '经办人身份证号', { maxLength: 18 })}
        {image('file', '授权委托书', TemplateLink)}
        {image('authorFront', '经办人身份证正面照片')}
        {image('authorBack', '经办人身份证反面照片')}
      </Section>
      <FormErrors errors={form.errors} />
      <SubmitButton label="提交认证" busyLabel="正在提交…" />
    </KycForm>
  );
}

/** The submission as read-only rows in the form's four sections (userStatus 2 and 3). */
export function EnterpriseReadOnly({ d }: { d: EnterprisePage }) {
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

/**
 * API 信息: AppID and SecurityKey. The key shows in full while the platform still offers it (`shown`) or right
 * after 重置密钥 (`rotatedKey`, from the action's answer), masked otherwise.
 */
export function ApiInfo({
  api,
  rotatedKey,
  rotateError,
}: {
  api: NonNullable<EnterprisePage['api']>;
  rotatedKey: string | null;
  rotateError: string | null;
}) {
  const full = rotatedKey ?? (api.shown ? api.securityKey : null);
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
          {rotatedKey ? '密钥已重置。' : null}
          {KycText.keyShownOnce}
        </p>
      ) : null}
      <FormErrors errors={rotateError ? [rotateError] : undefined} />
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
