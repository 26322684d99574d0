/**
 * /newWeb: web page capture (spec 01 §2 routes; decision 037). A plain form — the URLs (one a line, at most
 * ten), the evidence's title and label — that queues a capture job on the platform and redirects to the list of
 * captures (/evidences-all/web), where the job's progress shows (Post/Redirect/Get; no JavaScript needed). The capture
 * itself runs on a gateway's worker (server/capture/worker.ts): a fresh browser records each page (screenshot, PDF,
 * page source, every HTTP exchange as WARC, the server's address and certificate) and the WACZ package is preserved
 * as evidence. Internal and private addresses are refused.
 */
import { getFormProps, getTextareaProps, useForm } from '@conform-to/react';
import { Form, Link } from 'react-router';
import type { Route } from './+types/new-web';
import { CapturePaths, MAX_CAPTURE_URLS } from '../../contract/capture-codes.ts';
import { CreateWebCaptureBody } from '../../contract/capture.ts';
import { kycGateHref } from '../kyc/gate.server.ts';
import { queueCapture } from './queue-capture.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { CaptureEvidenceFields } from './evidence-fields.tsx';

export const meta: Route.MetaFunction = () => [{ title: '网页取证 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { gate: await kycGateHref(request, context) };
}

export function action({ request, context }: Route.ActionArgs) {
  return queueCapture(request, context, {
    schema: CreateWebCaptureBody,
    path: CapturePaths.createWeb,
    // one URL a line, as the form sent them (the contract takes either form)
    body: (value) => ({ ...value, urls: value.urls.join('\n') }),
    next: (job) => `/evidences-all/web?job=${job.id}`,
  });
}

export default function NewWebCapture({ loaderData, actionData }: Route.ComponentProps) {
  const gated = actionData && 'gated' in actionData ? String(actionData.gated) : null;
  const [form, fields] = useForm<{ urls: string; title: string; label: string }>({
    id: 'web-capture',
    lastResult: actionData?.result,
  });
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/evidences-all/web">在线取证</Link> / 网页取证
      </p>
      <h1>网页取证</h1>
      <p className="lead">
        输入要取证的网址，平台在隔离的浏览器中打开网页，记录整页截图、PDF、网页源码、全部网络请求（WARC
        格式）、服务器 IP 地址和证书，打包为 WACZ 文件保全并上链。
      </p>
      {loaderData.gate || gated ? (
        <KycGateNotice href={loaderData.gate ?? '/no-type'} message={gated ?? undefined} />
      ) : null}
      <Form method="post" {...getFormProps(form)} className="card" noValidate>
        <CsrfInput />
        <ErrorSummary form={form} />
        <Field
          label="网址"
          id={fields.urls.id}
          errors={fields.urls.errors}
          hint={`每行一个，以 http:// 或 https:// 开头，最多 ${MAX_CAPTURE_URLS} 个；不能取证内网或本机地址`}
        >
          <textarea {...getTextareaProps(fields.urls)} rows={5} spellCheck={false} autoComplete="off" />
        </Field>
        <CaptureEvidenceFields title={fields.title} label={fields.label} />
        <FormErrors errors={form.errors} />
        <button type="submit" className="button primary">
          开始取证
        </button>
      </Form>
    </section>
  );
}
