/**
 * /personage-kyc and /person-info (spec 02 "Personal KYC screen", §3, §4, §5): the personal verification.
 * The method is chosen first (`?method=face|photo`: radio buttons that navigate with JavaScript, a GET form with
 * 确定 without it). Photo: name, ID number, sex, ID address, three photos (front, back, hand-held, jpg/jpeg/png/gif
 * ≤ 3 MB), consent, 提交 → `perAuthorize` (multipart), then the page reloads with the "under review" banner.
 * Face: name, ID number, address, consent, 下一步 → `aliIdentification`, then the QR page `/personage-face-kyc`.
 * Editable at userStatus 1 and 4 (4 keeps the earlier values and photos, with the failure reason); read-only with
 * the status banner at 2 and 3.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import type { z } from 'zod';
import type { Route } from './+types/personal';
import {
  AuthType,
  isKycEditable,
  isSuccess,
  KycMsg,
  KycPaths,
  Msg,
  type FaceStartData,
  type KycImageInput,
} from '../../contract/index.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import {
  KycText,
  PERSONAL_IMAGES,
  PersonalFaceForm,
  PersonalPhotoClientForm,
  PersonalPhotoForm,
  UNCHANGED_IMAGE,
  type PersonalPhotoFields,
  withKeptImages,
} from './kyc-forms.ts';
import {
  BodyTooLarge,
  faceUrl,
  loadAuthInfo,
  multipartOf,
  pagePath,
  readFormDataCapped,
  redirectToOwnType,
} from './kyc.server.ts';
import { ImageInput, InfoRows, StatusBanner, Thumb } from './kyc-ui.tsx';
import { LegalPaths } from '../legal/paths.ts';

export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${location.pathname === '/person-info' ? '认证信息' : '个人实名认证'} - 存证云` },
];

type Method = 'photo' | 'face';
const IMAGE_LABELS: Record<(typeof PERSONAL_IMAGES)[number], string> = {
  authorFront: '身份证正面照片',
  authorBack: '身份证反面照片',
  authorHand: '手持身份证照片',
};
const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif';
const IMAGE_HINT = '支持 jpg、jpeg、png、gif 格式，大小不超过3M。';
/** Three photos of at most 3 MB and the text fields, with room for the multipart framing. */
const BODY_CAP = 3 * 3 * 1024 * 1024 + 1024 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
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

/** The value an image part carries to the platform: the new file, or the "unchanged" text. */
function imagePart(v: KycImageInput): string | Blob {
  return typeof v === 'string' ? UNCHANGED_IMAGE : (v as Blob);
}

function formError(method: Method, message: string, status = 400) {
  const result: SubmissionResult<string[]> = { status: 'error', error: { '': [message] } };
  return data({ method, result }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  let formData: FormData;
  try {
    formData = await readFormDataCapped(request, BODY_CAP);
  } catch (err) {
    if (err instanceof BodyTooLarge) return formError('photo', KycMsg.personalImageTooLarge, 413);
    throw err;
  }
  await validateCsrf(formData, request, context);
  if (formData.get('type') === AuthType.face) {
    const submission = parseWithZod(formData, { schema: PersonalFaceForm });
    if (submission.status !== 'success')
      return data({ method: 'face', result: submission.reply() }, { status: 400 });
    const { username, idCard, address } = submission.value;
    const res = await authedCall<FaceStartData>(request, context, KycPaths.aliIdentification, {
      body: { username, idCard, type: AuthType.face, address },
    });
    if (!isSuccess(res.code) || !res.data?.certify_id) {
      return data({ method: 'face', result: submission.reply({ formErrors: [res.msg] }) }, { status: 400 });
    }
    return redirect(faceUrl(context, res.data.certify_id, res.data.qrContent, res.data.expiresAt));
  }
  const submission = await parseWithZod(withKeptImages(formData, PERSONAL_IMAGES), {
    schema: PersonalPhotoForm,
    async: true,
  });
  if (submission.status !== 'success')
    return data({ method: 'photo', result: submission.reply() }, { status: 400 });
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
    return data({ method: 'photo', result: submission.reply({ formErrors: [res.msg] }) }, { status: 400 });
  }
  return redirect(`${pagePath(request)}?done=submitted`);
}

/** The method radios: navigate on change with JavaScript; a GET form with 确定 without it. */
function MethodChoice({ path, method }: { path: string; method: Method | null }) {
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
          上传身份证照片认证（0-2个工作日）
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

function ConsentBox({
  input,
  errors,
}: {
  input: ReturnType<typeof getInputProps>;
  errors?: string[] | undefined;
}) {
  const error = errors?.[0];
  const { key, ...props } = input;
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

type LoaderData = Awaited<ReturnType<typeof loader>>;

function PhotoForm({ d }: { d: LoaderData }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm<PersonalPhotoFields, z.output<typeof PersonalPhotoClientForm>>({
    id: 'kyc-photo',
    lastResult: actionData?.method === 'photo' ? actionData.result : undefined,
    defaultValue: d.values,
    onValidate: ({ formData }) =>
      parseWithZod(withKeptImages(formData, PERSONAL_IMAGES), { schema: PersonalPhotoClientForm }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="card kyc-form"
      noValidate
    >
      <CsrfInput />
      <input type="hidden" name="type" value={AuthType.photo} />
      <Field label="姓名" id={fields.userName.id} errors={fields.userName.errors}>
        <input {...getInputProps(fields.userName, { type: 'text' })} autoComplete="name" />
      </Field>
      <Field label="身份证号码" id={fields.idCard.id} errors={fields.idCard.errors}>
        <input {...getInputProps(fields.idCard, { type: 'text' })} autoComplete="off" maxLength={18} />
      </Field>
      <fieldset className={fields.sex.errors ? 'field field-invalid' : 'field'}>
        <legend>性别</legend>
        <label className="radio">
          <input {...getInputProps(fields.sex, { type: 'radio', value: '0' })} id={`${fields.sex.id}-0`} /> 男
        </label>
        <label className="radio">
          <input {...getInputProps(fields.sex, { type: 'radio', value: '1' })} id={`${fields.sex.id}-1`} /> 女
        </label>
        {fields.sex.errors ? (
          <div className="field-error" role="alert">
            {fields.sex.errors[0]}
          </div>
        ) : null}
      </fieldset>
      <Field label="身份证地址" id={fields.address.id} errors={fields.address.errors}>
        <input {...getInputProps(fields.address, { type: 'text' })} maxLength={200} />
      </Field>
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
      <ConsentBox
        input={getInputProps(fields.consent, { type: 'checkbox', value: '1' })}
        errors={fields.consent.errors}
      />
      <FormErrors errors={[...(form.errors ?? []), ...(fields.type.errors ?? [])]} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? '正在提交…' : '提交'}
      </button>
    </Form>
  );
}

function FaceForm({ d }: { d: LoaderData }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'kyc-face',
    lastResult: actionData?.method === 'face' ? actionData.result : undefined,
    defaultValue: { username: d.values.userName, idCard: d.values.idCard, address: d.values.address },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PersonalFaceForm }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <Form method="post" {...getFormProps(form)} className="card kyc-form" noValidate>
      <CsrfInput />
      <input type="hidden" name="type" value={AuthType.face} />
      <Field label="姓名" id={fields.username.id} errors={fields.username.errors}>
        <input {...getInputProps(fields.username, { type: 'text' })} autoComplete="name" />
      </Field>
      <Field label="身份证号码" id={fields.idCard.id} errors={fields.idCard.errors}>
        <input {...getInputProps(fields.idCard, { type: 'text' })} autoComplete="off" maxLength={18} />
      </Field>
      <Field label="身份证地址" id={fields.address.id} errors={fields.address.errors}>
        <input {...getInputProps(fields.address, { type: 'text' })} maxLength={200} />
      </Field>
      <p className="muted">点击“下一步”后请使用支付宝扫描二维码，完成人脸识别即可通过认证。</p>
      <ConsentBox
        input={getInputProps(fields.consent, { type: 'checkbox', value: '1' })}
        errors={fields.consent.errors}
      />
      <FormErrors errors={[...(form.errors ?? []), ...(fields.type.errors ?? [])]} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? '请稍候…' : '下一步'}
      </button>
    </Form>
  );
}

function Banner({ d }: { d: LoaderData }) {
  if (d.userStatus === '2')
    return (
      <StatusBanner tone="info" text={KycText.personalReviewing}>
        <p>{KycText.reviewHint}</p>
      </StatusBanner>
    );
  if (d.userStatus === '3') {
    return (
      <StatusBanner
        tone="success"
        text={d.authType === 3 ? KycText.personalVerifiedFace : KycText.personalVerifiedPhoto}
      />
    );
  }
  if (d.userStatus === '4')
    return <StatusBanner tone="error" text={KycText.personalFailed} remark={d.checkRemark} />;
  return null;
}

function ReadOnly({ d }: { d: LoaderData }) {
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

export default function PersonalKyc() {
  const d = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const infoPage = pathname === '/person-info';
  const actionData = useActionData<typeof action>();
  const method = (actionData?.method as Method | undefined) ?? d.method;
  return (
    <section className="page narrow kyc-page">
      {infoPage ? null : (
        <p className="breadcrumb">
          <Link to="/attestation-list">返回</Link> / 个人实名认证
        </p>
      )}
      <h1>{infoPage ? '认证信息' : '个人实名认证'}</h1>
      <FormNotice text={d.notice} />
      <Banner d={d} />
      {d.editable ? (
        <>
          <MethodChoice path={pathname} method={method} />
          {method === 'photo' ? <PhotoForm d={d} /> : null}
          {method === 'face' ? <FaceForm d={d} /> : null}
          {method === null ? <p className="muted">{KycMsg.methodRequired}</p> : null}
        </>
      ) : (
        <ReadOnly d={d} />
      )}
    </section>
  );
}
