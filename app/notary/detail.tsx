/**
 * /notary/detail?orderId&type — a notarisation order's detail (spec 02 §2 "Notary detail", §3 "Notary detail
 * response", §7 `detail`, document download with type 1–4 → `data.downUrl`; decision 034): the order's info
 * (number, time, points, pay and issuance states, how it was paid), the four signed documents and, once issued, the
 * notarial certificate to download, and the table of its evidences 10 a page. A download is a plain GET link back
 * to this route (`&doc=<type>`): the loader asks the platform for the file's signed, expiring URL and redirects
 * there, so the URL never shows in the page. No transfer screenshots exist on this platform (`tranImg` is null).
 * Another user's order answers 404.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/detail';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { NotaryPaths, type NotaryDetailData, type NotaryDownData } from '../../contract/notary.ts';
import {
  NOTARIAL_CERTIFICATE_TYPE,
  NOTARIAL_TEXT,
  NOTARY_DOCUMENTS,
  NOTARY_PAGE_SIZE,
  NOTARY_PAY_TEXT,
  Notarial,
  NotaryMsg,
  NotaryStep,
  STEP_TEXT,
  UNFINISHED,
  notaryType,
} from '../../contract/notary-codes.ts';
import { BillingPaths, PayStatus, type OrderStatusData } from '../../contract/billing.ts';
import { authedCall } from '../lib/auth.server.ts';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { Pagination } from '../shell/pagination.tsx';
import { isOrderId, notFound } from './notary.server.ts';
import { Facts, OrderEvidences } from './notary-ui.tsx';
import { stepPath } from './step-path.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '公证详情 - 我的公证 - 存证云' }];

const PAY_TYPE_TEXT: Record<number, string> = { 1: '积分支付', 2: '支付宝', 3: '微信支付' };
const DONE: Record<string, string> = { paid: NotaryMsg.paid, paper: NotaryMsg.paperRequested };
/** Back from the provider before it confirmed the payment (ours). */
const PAY_WAITING = '支付结果确认中，请稍后刷新页面查看';

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = url.searchParams.get('orderId') ?? '';
  if (!isOrderId(orderId)) throw notFound();
  const doc = url.searchParams.get('doc');
  if (doc !== null) {
    if (!/^[1-5]$/.test(doc)) throw notFound(NotaryMsg.documentNotFound);
    const res = await authedCall<NotaryDownData>(request, context, NotaryPaths.downDoc, {
      query: { orderId, type: doc },
    });
    if (!isSuccess(res.code) || !res.data.downUrl.startsWith('/'))
      throw notFound(res.msg || NotaryMsg.documentNotFound);
    throw redirect(res.data.downUrl, { headers: { 'Cache-Control': 'no-store' } });
  }
  // Back from Alipay (the recharge bought for this order): confirm the payment with the provider first.
  const orderNo = url.searchParams.get('order_no');
  let confirmed: string | null = null;
  if (orderNo !== null && /^R[0-9A-Za-z]{1,40}$/.test(orderNo)) {
    const status = await authedCall<OrderStatusData>(request, context, BillingPaths.doPay, {
      method: 'POST',
      body: { order_no: orderNo },
    });
    if (isSuccess(status.code))
      confirmed = status.data.status === PayStatus.paid ? NotaryMsg.paid : PAY_WAITING;
  }
  const pageParam = Number(url.searchParams.get('page') ?? 1);
  const page = Number.isSafeInteger(pageParam) && pageParam >= 1 && pageParam <= 100_000 ? pageParam : 1;
  const res = await authedCall<NotaryDetailData>(request, context, NotaryPaths.detail, {
    query: { orderId, page },
  });
  if (Number(res.code) === ApiCode.NOT_FOUND) throw notFound(res.msg);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  return {
    orderId: Number(orderId),
    page,
    ...res.data,
    notice: confirmed ?? DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

/** `intent=paper`: asks for the paper certificate to be mailed; back to the detail (Post/Redirect/Get). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const orderId = String(formData.get('orderId') ?? '');
  if (formData.get('intent') !== 'paper') return data({ error: Msg.badRequest }, { status: 400 });
  if (!isOrderId(orderId)) throw notFound();
  const res = await authedCall(request, context, NotaryPaths.requestPaper, {
    method: 'POST',
    body: { orderId },
  });
  if (!isSuccess(res.code)) return { error: res.msg };
  return redirect(`/notary/detail?orderId=${orderId}&done=paper`);
}

/** The paper certificate: copies and address, then a request button, then whether it was mailed and the waybill. */
function PaperCopies({ paper }: { paper: NonNullable<NotaryDetailData['info']['paper']> }) {
  return (
    <>
      <h2 className="section-title">纸质公证书</h2>
      <Facts
        testId="detail-paper"
        rows={[
          ['份数', `${paper.copies}份`],
          ['收件地址', paper.address],
          ['申请寄送时间', paper.requestedAt ?? ''],
          [
            '快递单号',
            paper.courierNumber ? (
              <span className="mono" data-testid="detail-courier">
                {paper.courierNumber}
              </span>
            ) : paper.requestedAt ? (
              '待寄送'
            ) : (
              ''
            ),
          ],
        ]}
      />
    </>
  );
}

export default function NotaryDetail({ loaderData, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { orderId, page, info, list, count, notice } = loaderData;
  const signed = info.step > NotaryStep.signature;
  const issued = info.notarial === Notarial.succeeded;
  const docHref = (type: number) => `/notary/detail?orderId=${orderId}&type=${info.type}&doc=${type}`;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 公证详情
      </p>
      <h1>公证详情</h1>
      <FormNotice text={notice} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <h2 className="section-title">订单信息</h2>
      <Facts
        testId="notary-info"
        rows={[
          ['订单编号', <span className="mono">{info.orderNo}</span>],
          ['公证类型', notaryType(info.type)?.name ?? '-'],
          ['创建时间', info.addTime],
          ['费用', `${info.money} 积分`],
          ['支付状态', <span data-testid="detail-pay">{NOTARY_PAY_TEXT[info.pay]}</span>],
          ['支付方式', info.payType ? PAY_TYPE_TEXT[info.payType] : ''],
          [
            '出证状态',
            <span data-testid="detail-notarial">
              {info.notarial === null ? UNFINISHED : NOTARIAL_TEXT[info.notarial]}
            </span>,
          ],
          [
            '公证书编号',
            info.certificateNo ? <span data-testid="detail-certificate-no">{info.certificateNo}</span> : '',
          ],
          ['公证处留言', info.officeRemark ?? ''],
          ['办理进度', info.step === NotaryStep.done ? STEP_TEXT[5] : `待${STEP_TEXT[info.step]}`],
        ]}
      />
      {info.step < NotaryStep.done && info.notarial === null && info.pay !== 3 ? (
        <p>
          <Link className="button primary" to={stepPath(info.step, orderId, info.type)}>
            继续办理
          </Link>
        </p>
      ) : null}
      <h2 className="section-title">电子签名文书</h2>
      {signed ? (
        <ul className="notary-documents" data-testid="detail-documents">
          {NOTARY_DOCUMENTS.map((d) => (
            <li key={d.type}>
              <a href={appUrl(docHref(d.type))}>{d.name}（PDF）</a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">文书尚未签署</p>
      )}
      {issued && info.paper ? <PaperCopies paper={info.paper} /> : null}
      {issued ? (
        <>
          <h2 className="section-title">公证书</h2>
          {info.paper && !info.paper.requestedAt ? (
            <Form method="post" className="inline-form">
              <CsrfInput />
              <input type="hidden" name="orderId" value={orderId} />
              <button type="submit" name="intent" value="paper" className="button">
                申请寄送纸质公证书
              </button>
            </Form>
          ) : null}
          <p data-testid="detail-certificate">
            <a className="button primary" href={appUrl(docHref(NOTARIAL_CERTIFICATE_TYPE))}>
              下载公证书（PDF）
            </a>{' '}
            <Link to="/queryAuthentication/notarial">公证书核验</Link>
          </p>
        </>
      ) : null}
      <h2 className="section-title">公证证据（共{count}项）</h2>
      <OrderEvidences rows={list} />
      <Pagination
        page={page}
        pageSize={NOTARY_PAGE_SIZE}
        count={count}
        href={(n) => `/notary/detail?orderId=${orderId}&type=${info.type}&page=${n}`}
      />
    </section>
  );
}
