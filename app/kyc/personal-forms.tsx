/**
 * The parts of /personage-kyc and /person-info (spec 02 "Personal KYC screen", §5): the method choice, the photo
 * form (name, ID number, sex, ID address, three photos jpg/jpeg/png/gif ≤ 3 MB, consent), the face form (name, ID
 * number, address, consent) and the read-only view of a submission under review or verified. Conform validates in
 * the browser with the same schemas the action re-checks (kyc-forms.ts), loaded on the form's first focus
 * (kyc-validation.ts).
 */
import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigate } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { AuthType, KycMsg } from '../../contract/kyc-codes.ts';
import { LegalPaths } from '../legal/paths.ts';
import { FormErrors } from '../shell/field.tsx';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import type { PersonalPhotoFields } from './kyc-forms.ts';
import { PERSONAL_IMAGES } from './kyc-text.ts';
import { KycForm, RadioField, SubmitButton, TextInput } from './kyc-page-ui.tsx';
import { ImageInput, InfoRows, Thumb } from './kyc-ui.tsx';
import type { Method, PersonalPage } from './personal.server.ts';

const IMAGE_LABELS: Record<(typeof PERSONAL_IMAGES)[number], string> = {
  authorFront: '身份证正面照片',
  authorBack: '身份证反面照片',
  authorHand: '手持身份证照片',
};
const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif';
const IMAGE_HINT = '支持 jpg、jpeg、png、gif 格式，大小不超过3M。';

/** The method radios: navigate on change with JavaScript; a GET form with 确定 without it. */
export function MethodChoice({ path, method }: { path: string; method: Method | null }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const pick = (m: Method) => () => {
    if (hydrated) void navigate(`${path}?method=${m}`, { replace: true, preventScrollReset: true });
  };
  return (
    <Form method="get" action={path} className="kyc-method" key={method ?? 'none'}>
      <fieldset className="field">
        <legend>认证方式</legend>
        <label className="radio">
          <input
            type="radio"
            name="method"
            value="face"
            defaultChecked={method === 'face'}
            onChange={pick('face')}
          />{' '}
          支付宝刷脸认证
        </label>
        <label className="radio">
          <input
            type="radio"
            name="method"
            value="photo"
            defaultChecked={method === 'photo'}
            onChange={pick('photo')}
          />{' '}
          {KycMsg.photoMethodLabel}
        </label>
      </fieldset>
      {hydrated ? null : (
        <button type="submit" className="button small">
          确定
        </button>
      )}
    </Form>
  );
}

/** The consent checkbox with the privacy-policy note on sensitive personal information. */
function ConsentBox({ field }: { field: FieldMetadata<unknown> }) {
  const error = field.errors?.[0];
  const { key, ...props } = getInputProps(field, { type: 'checkbox', value: '1' });
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label className="checkbox" htmlFor={props.id}>
        <input key={key} {...props} /> 我已阅读并同意实名认证，授权平台核验以上身份信息
      </label>
      <p className="muted small">
        身份证件号码、证件照片和人脸识别结果属于敏感个人信息，其用途、保存和保护方式见
        <Link to={LegalPaths.privacy} target="_blank" rel="noopener">
          《隐私政策》
        </Link>
      </p>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** What a form of this page gets: the page's data and the action's last answer for this form (or undefined). */
interface FormProps {
  d: PersonalPage;
  lastResult: SubmissionResult<string[]> | undefined;
}

/** The photo method's form (multipart: the three photos travel with the fields). */
export function PhotoForm({ d, lastResult }: FormProps) {
  const validation = useLazyValidation(() =>
    import('./kyc-validation.ts').then((m) => m.validatePersonalPhoto),
  );
  const [form, fields] = useForm<PersonalPhotoFields>({
    id: 'kyc-photo',
    lastResult,
    defaultValue: d.values,
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <KycForm form={form} multipart onFocus={validation.onFocus}>
      <input type="hidden" name="type" value={AuthType.photo} />
      <TextInput label="姓名" field={fields.userName} autoComplete="name" />
      <TextInput label="身份证号码" field={fields.idCard} autoComplete="off" maxLength={18} />
      <RadioField
        legend="性别"
        field={fields.sex}
        options={[
          { value: '0', label: '男', idSuffix: '0' },
          { value: '1', label: '女', idSuffix: '1' },
        ]}
      />
      <TextInput label="身份证地址" field={fields.address} maxLength={200} />
      {PERSONAL_IMAGES.map((name) => (
        <ImageInput
          key={name}
          name={name}
          id={fields[name].id}
          label={IMAGE_LABELS[name]}
          current={d.images[name]}
          hint={IMAGE_HINT}
          errors={fields[name].errors}
          accept={IMAGE_ACCEPT}
        />
      ))}
      <ConsentBox field={fields.consent} />
      <FormErrors errors={[...(form.errors ?? []), ...(fields.type.errors ?? [])]} />
      <SubmitButton label="提交" busyLabel="正在提交…" />
    </KycForm>
  );
}

/** The face method's form: 下一步 starts the certification and leads to the QR page. */
export function FaceForm({ d, lastResult }: FormProps) {
  const validation = useLazyValidation(() =>
    import('./kyc-validation.ts').then((m) => m.validatePersonalFace),
  );
  const [form, fields] = useForm({
    id: 'kyc-face',
    lastResult,
    defaultValue: { username: d.values.userName, idCard: d.values.idCard, address: d.values.address },
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <KycForm form={form} onFocus={validation.onFocus}>
      <input type="hidden" name="type" value={AuthType.face} />
      <TextInput label="姓名" field={fields.username} autoComplete="name" />
      <TextInput label="身份证号码" field={fields.idCard} autoComplete="off" maxLength={18} />
      <TextInput label="身份证地址" field={fields.address} maxLength={200} />
      <p className="muted">点击“下一步”后请使用支付宝扫描二维码，完成人脸识别即可通过认证。</p>
      <ConsentBox field={fields.consent} />
      <FormErrors errors={[...(form.errors ?? []), ...(fields.type.errors ?? [])]} />
      <SubmitButton label="下一步" busyLabel="请稍候…" />
    </KycForm>
  );
}

/** The submission as read-only rows (userStatus 2 and 3); the photos only for the photo method. */
export function PersonalReadOnly({ d }: { d: PersonalPage }) {
  const face = d.authType === 3;
  const rows: [string, React.ReactNode][] = [
    ['认证方式', face ? '支付宝刷脸认证' : '身份证照片认证'],
    ['姓名', d.values.userName],
    ['身份证号码', <span className="mono">{d.values.idCard}</span>],
  ];
  if (!face) rows.push(['性别', d.values.sex === '0' ? '男' : d.values.sex === '1' ? '女' : '']);
  rows.push(['身份证地址', d.values.address]);
  if (!face)
    for (const name of PERSONAL_IMAGES)
      rows.push([IMAGE_LABELS[name], <Thumb url={d.images[name]} label={IMAGE_LABELS[name]} />]);
  return (
    <div className="card kyc-readonly">
      <InfoRows rows={rows} />
    </div>
  );
}
