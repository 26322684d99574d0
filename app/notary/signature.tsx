/**
 * /attestation-list/readingMaterial/signature/{orderId}/{type} — step 2 of a notarisation order (decision 034):
 * the four documents of the order (申请表, 告知书, 承诺书, 授权委托书), each readable first in its print view, with the
 * user's default seal from /signature at the signature (or their name when they have none). 确认签署 prints each
 * view, with the user's own session, to a PDF the platform's document signer signs (PAdES), and hands the four to
 * the platform with the gateway's internal key (a user cannot upload documents of their own making); the order moves
 * to step 3 (Post/Redirect/Get). Once signed, the page links the four signed PDFs.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/signature';
import { isSuccess } from '../../contract/envelope.ts';
import { NotaryPaths, type NotaryDocumentData } from '../../contract/notary.ts';
import { NOTARY_DOCUMENTS, NotaryMsg, NotaryStep } from '../../contract/notary-codes.ts';
import { apiCall, multipartPdfs } from '../lib/api.server.ts';
import { authedCall, requireToken } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { printFailure } from '../lib/print-failure.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors } from '../shell/field.tsx';
import { loadStep } from './notary.server.ts';
import { StepsBar } from './notary-ui.tsx';
import { stepPath } from './step-path.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '在线签名 - 我的公证 - 存证云' }];

/** When the gateway cannot print (no browser, no key): ours. */
const SIGNING_UNAVAILABLE = '文书签署服务暂不可用，请稍后重试';
const SIGNING_BUSY = '文书签署服务繁忙，请稍后重试';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await loadStep(request, context, params, NotaryStep.signature);
  const docs = await authedCall<NotaryDocumentData>(request, context, NotaryPaths.documentData, {
    query: { orderId: order.orderId },
  });
  if (!isSuccess(docs.code)) throw data({ message: docs.msg }, { status: 400 });
  return {
    orderId: order.orderId,
    info: order.info,
    hasSeal: docs.data.seal !== null,
    signed: docs.data.signed,
    applicant: docs.data.applicant.name,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const order = await loadStep(request, context, params, NotaryStep.signature);
  if (order.info.step !== NotaryStep.signature)
    return redirect(stepPath(order.info.step, order.orderId, order.info.type));
  if (!context.printPage || !context.internalKey)
    return data({ error: SIGNING_UNAVAILABLE }, { status: 503 });
  const token = await requireToken(request, context);
  const cookie = request.headers.get('cookie');
  let pdfs: Buffer[];
  try {
    // One after another: the print pool is shared with every other PDF the gateway makes.
    pdfs = [];
    for (const d of NOTARY_DOCUMENTS) {
      pdfs.push(await context.printPage(`/notary/document/${order.orderId}/${d.type}`, cookie, d.name));
    }
  } catch (err) {
    const kind = printFailure(err);
    if (kind === null) throw err;
    return data({ error: kind === 'busy' ? SIGNING_BUSY : SIGNING_UNAVAILABLE }, { status: 503 });
  }
  const res = await apiCall(context, NotaryPaths.submitDocuments, {
    method: 'POST',
    token,
    internal: true,
    urlPath: new URL(request.url).pathname,
    stream: multipartPdfs(
      { orderId: String(order.orderId) },
      NOTARY_DOCUMENTS.map((d, i) => ({
        field: `doc${d.type}`,
        name: `${d.name}.pdf`,
        bytes: new Uint8Array(pdfs[i]!),
      })),
    ),
  });
  if (!isSuccess(res.code) && res.msg !== NotaryMsg.documentsSigned)
    return data({ error: res.msg }, { status: 400 });
  return redirect(stepPath(NotaryStep.deCode, order.orderId, order.info.type));
}

export default function Signature({ loaderData, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { orderId, info, hasSeal, signed, applicant } = loaderData;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 在线签名
      </p>
      <h1>在线签名</h1>
      <StepsBar current={2} reached={info.step} orderId={orderId} type={info.type} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <p>
        请阅读以下公证文书。确认签署后，平台将以您的签章（或姓名）签署每份文书，并对文书进行数字签名，签署后不可修改。
      </p>
      {!hasSeal && !signed ? (
        <p className="form-notice" role="status" data-testid="no-seal">
          您尚未设置默认签章，文书将以申请人姓名“{applicant}”签署。<Link to="/signature">设置签章</Link>
        </p>
      ) : null}
      <ul className="notary-documents" data-testid="notary-documents">
        {NOTARY_DOCUMENTS.map((d) => (
          <li key={d.type}>
            {signed ? (
              <a href={appUrl(`/notary/detail?orderId=${orderId}&type=${info.type}&doc=${d.type}`)}>
                {d.name}（已签署，下载PDF）
              </a>
            ) : (
              <a href={appUrl(`/notary/document/${orderId}/${d.type}`)} target="_blank" rel="noopener">
                阅读《{d.name}》
              </a>
            )}
          </li>
        ))}
      </ul>
      {signed ? (
        <p>
          <Link className="button primary" to={stepPath(info.step, orderId, info.type)}>
            继续办理
          </Link>
        </p>
      ) : (
        <Form method="post" className="card" data-testid="sign-form">
          <CsrfInput />
          <button type="submit" className="button primary">
            确认签署
          </button>
        </Form>
      )}
    </section>
  );
}
