/**
 * /attestation-list/readingMaterial/applicationForm/{orderId}/{type} — step 1 of a notarisation order (decision 034;
 * spec 02 §4 "Continue, by step"): the applicant reads the notarisation notice (告知书) and fills the application —
 * the applicant is their verified identity (shown masked), purpose, place of use, number of copies, a delivery
 * address from /address and a remark — with the contract's rules and messages here and on the platform. One POST
 * form; success goes to step 2 (Post/Redirect/Get). Once saved, the page shows what was saved.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/application-form';
import { type Address, AddressPaths } from '../../contract/address.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { ApplicationFormBody, NotaryPaths, type NotaryApplicationData } from '../../contract/notary.ts';
import { MAX_COPIES, NotaryStep } from '../../contract/notary-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { fieldErrors } from '../lib/field-errors.ts';
import { readForm } from '../lib/form-body.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { noticeParagraphs } from './document-texts.ts';
import { loadStep } from './notary.server.ts';
import { Facts, StepsBar } from './notary-ui.tsx';
import { stepPath } from './step-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '申请材料阅读/填写 - 我的公证 - 存证云' }];

/** The agreement checkbox's message (ours). */
const AGREE_REQUIRED = '请阅读并同意《公证告知书》';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await loadStep(request, context, params, NotaryStep.applicationForm);
  const [app, addresses] = await Promise.all([
    authedCall<NotaryApplicationData>(request, context, NotaryPaths.application, {
      query: { orderId: order.orderId },
    }),
    authedCall<Address[]>(request, context, AddressPaths.addressList),
  ]);
  if (!isSuccess(app.code)) throw data({ message: app.msg }, { status: 400 });
  return {
    orderId: order.orderId,
    info: order.info,
    application: app.data,
    notice: noticeParagraphs(context.site.issuer.notaryOffice),
    addresses: isSuccess(addresses.code)
      ? addresses.data.map((a) => ({
          id: String(a.id),
          label: `${a.name} ${a.phoneNumber} ${a.province}${a.city}${a.area}${a.address}`,
          isDefault: a.status === 1,
        }))
      : [],
  };
}

interface Values {
  purpose: string;
  usePlace: string;
  copies: string;
  addressId: string;
  remark: string;
  agree: boolean;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const text = (name: string) => {
    const v = formData.get(name);
    return typeof v === 'string' ? v : '';
  };
  const values: Values = {
    purpose: text('purpose'),
    usePlace: text('usePlace'),
    copies: text('copies'),
    addressId: text('addressId'),
    remark: text('remark'),
    agree: formData.get('agree') === '1',
  };
  const parsed = ApplicationFormBody.safeParse({ ...values, orderId: params.orderId });
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  if (!values.agree) errors.agree = AGREE_REQUIRED;
  if (!parsed.success || !values.agree) return data({ values, errors, formError: null }, { status: 400 });
  const v = parsed.data;
  const res = await authedCall(request, context, NotaryPaths.saveApplication, {
    method: 'POST',
    body: {
      orderId: v.orderId,
      purpose: v.purpose,
      usePlace: v.usePlace,
      copies: v.copies,
      addressId: v.addressId,
      remark: v.remark ?? '',
    },
  });
  if (!isSuccess(res.code)) return data({ values, errors: {}, formError: res.msg }, { status: 400 });
  return redirect(stepPath(NotaryStep.signature, v.orderId, params.type ?? ''));
}

export default function ApplicationForm({ loaderData, actionData }: Route.ComponentProps) {
  const { orderId, info, application: a, notice, addresses } = loaderData;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values = actionData?.values;
  const id = (name: string) => `application-${name}`;
  const invalid = (name: string) =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};
  const errorsOf = (name: string) => (errors[name] ? [errors[name]!] : undefined);
  const fieldError = (name: string) =>
    errors[name] ? (
      <div className="field-error" id={`${id(name)}-error`} role="alert">
        {errors[name]}
      </div>
    ) : null;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 申请材料阅读/填写
      </p>
      <h1>申请材料阅读/填写</h1>
      <StepsBar current={1} reached={info.step} orderId={orderId} type={info.type} />
      <Facts
        rows={[
          ['订单编号', <span className="mono">{info.orderNo}</span>],
          ['公证费用', `${info.money} 积分`],
        ]}
      />
      <h2 className="section-title" id="notary-notice-title">
        公证告知书
      </h2>
      {/* a scrolling box the keyboard can reach and scroll (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <div
        className="card notary-notice"
        data-testid="notary-notice"
        role="region"
        aria-labelledby="notary-notice-title"
        tabIndex={0}
      >
        {notice.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <h2 className="section-title">申请人</h2>
      <Facts
        rows={[
          [a.applicant.kind === 'enterprise' ? '申请单位' : '申请人', a.applicant.name],
          [a.applicant.kind === 'enterprise' ? '统一社会信用代码' : '身份证号码', a.applicant.idNumber],
        ]}
        testId="notary-applicant"
      />
      {a.form ? (
        <>
          <h2 className="section-title">申请表（已提交）</h2>
          <Facts
            testId="notary-application-saved"
            rows={[
              ['公证用途', a.form.purpose],
              ['使用地', a.form.usePlace],
              ['公证书份数', `${a.form.copies}份`],
              ['收件人', `${a.form.recipient} ${a.form.phoneNumber}`],
              ['收件地址', `${a.form.region} ${a.form.address}`],
              ['备注', a.form.remark || '无'],
            ]}
          />
          <p>
            <Link className="button primary" to={stepPath(info.step, orderId, info.type)}>
              继续办理
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="card" noValidate>
          <CsrfInput />
          <FormErrors errors={actionData?.formError ? [actionData.formError] : undefined} />
          <Field label="公证用途" id={id('purpose')} errors={errorsOf('purpose')}>
            <input
              id={id('purpose')}
              name="purpose"
              maxLength={100}
              required
              defaultValue={values?.purpose}
              placeholder="如：诉讼、仲裁、维权"
              {...invalid('purpose')}
            />
          </Field>
          <Field label="使用地" id={id('usePlace')} errors={errorsOf('usePlace')}>
            <input
              id={id('usePlace')}
              name="usePlace"
              maxLength={50}
              required
              defaultValue={values?.usePlace}
              placeholder="如：北京市"
              {...invalid('usePlace')}
            />
          </Field>
          <Field
            label="公证书份数"
            id={id('copies')}
            errors={errorsOf('copies')}
            hint={<>纸质公证书份数，1-{MAX_COPIES}份</>}
          >
            <input
              id={id('copies')}
              name="copies"
              type="number"
              min={1}
              max={MAX_COPIES}
              required
              defaultValue={values?.copies ?? '1'}
              {...invalid('copies')}
            />
          </Field>
          <fieldset
            className={errors.addressId ? 'field field-invalid' : 'field'}
            data-testid="notary-addresses"
          >
            <legend>收件地址</legend>
            {addresses.length === 0 ? <p className="muted">暂无收货地址</p> : null}
            {addresses.map((ad) => (
              <label key={ad.id} className="checkbox">
                <input
                  type="radio"
                  name="addressId"
                  value={ad.id}
                  defaultChecked={values ? values.addressId === ad.id : ad.isDefault}
                />{' '}
                {ad.label}
                {ad.isDefault ? <span className="muted">（默认地址）</span> : null}
              </label>
            ))}
            <p>
              <Link to="/address">管理收货地址</Link>
            </p>
            {errors.addressId ? (
              <div className="field-error" role="alert">
                {errors.addressId}
              </div>
            ) : null}
          </fieldset>
          <Field label="备注" id={id('remark')} errors={errorsOf('remark')} hint="选填，不超过150个字符">
            <textarea
              id={id('remark')}
              name="remark"
              rows={3}
              maxLength={150}
              defaultValue={values?.remark}
              {...invalid('remark')}
            />
          </Field>
          <div className={errors.agree ? 'field field-invalid' : 'field'}>
            <label className="checkbox">
              <input
                type="checkbox"
                name="agree"
                value="1"
                defaultChecked={values?.agree}
                {...invalid('agree')}
              />{' '}
              我已阅读并同意《公证告知书》
            </label>
            {fieldError('agree')}
          </div>
          <button type="submit" className="button primary">
            提交申请表
          </button>
        </Form>
      )}
    </section>
  );
}
