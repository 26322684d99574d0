/**
 * /attestation-list/readingMaterial/deCode/{orderId}/{type} — step 3 of a notarisation order (decision 034): the
 * user authorises the notary office to read the order's preserved evidences by entering their extraction code (the
 * one /setting shows, spec 01 §2.5); from then on the office's operators can download exactly those evidences, each
 * access in the audit log. One POST form; success goes to the payment step (Post/Redirect/Get).
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/de-code';
import { isSuccess } from '../../contract/envelope.ts';
import { DeCodeBody, NotaryPaths } from '../../contract/notary.ts';
import { NotaryStep } from '../../contract/notary-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { loadStep } from './notary.server.ts';
import { OrderEvidences, StepsBar } from './notary-ui.tsx';
import { stepPath } from './step-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '数据解密 - 我的公证 - 存证云' }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await loadStep(request, context, params, NotaryStep.deCode);
  return { orderId: order.orderId, info: order.info, list: order.list, count: order.count };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const parsed = DeCodeBody.safeParse({ orderId: params.orderId, code: formData.get('code') ?? '' });
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
  const res = await authedCall(request, context, NotaryPaths.deCode, {
    method: 'POST',
    body: { orderId: parsed.data.orderId, code: parsed.data.code },
  });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(stepPath(NotaryStep.pay, parsed.data.orderId, params.type ?? ''));
}

export default function DeCode({ loaderData, actionData }: Route.ComponentProps) {
  const { orderId, info, list, count } = loaderData;
  const done = info.step > NotaryStep.deCode;
  const error = actionData?.error;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 数据解密
      </p>
      <h1>数据解密</h1>
      <StepsBar current={3} reached={info.step} orderId={orderId} type={info.type} />
      <p>为办理公证，需授权公证处读取以下电子数据（共{count}项）。公证处的每次读取都会记入审计日志。</p>
      <OrderEvidences rows={list} />
      {done ? (
        <p>
          已授权公证处读取所选证据。{' '}
          <Link className="button primary" to={stepPath(info.step, orderId, info.type)}>
            继续办理
          </Link>
        </p>
      ) : (
        <Form method="post" className="card" noValidate>
          <CsrfInput />
          <div className={error ? 'field field-invalid' : 'field'}>
            <label htmlFor="decode-code">提取码</label>
            <input
              id="decode-code"
              name="code"
              autoComplete="off"
              maxLength={30}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'decode-code-error decode-code-hint' : 'decode-code-hint'}
            />
            <div className="field-hint" id="decode-code-hint">
              提取码可在<Link to="/setting">账户设置</Link>中查看
            </div>
            {error ? (
              <div className="field-error" id="decode-code-error" role="alert">
                {error}
              </div>
            ) : null}
          </div>
          <button type="submit" className="button primary">
            确认授权
          </button>
        </Form>
      )}
    </section>
  );
}
