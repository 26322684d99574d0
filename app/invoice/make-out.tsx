/**
 * /orders/makeOutInvoice?ids=…&money=… (spec 02 §2 "Invoices", §5 "Invoice application", §7 `invoiceAsk`, §9): the
 * recharges ticked on /orders (repeated `ids` fields from that GET form, or `ids=[1,2]`), their total recomputed by
 * the platform (`invoicePreview`; the query's money is never trusted, and the page says when it differed), a choice
 * of invoice head and delivery address (radio lists, with links to add one), a remark of at most 150 characters, and
 * the shipping rule of each invoice type before submitting (free from ¥200 per application, otherwise cash on
 * delivery; electronic invoices are downloaded). One POST form; success goes to the application list with 提交成功
 * (Post/Redirect/Get); errors show at their fields with the spec's messages.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/make-out';
import { formatFen } from '../../contract/billing-codes.ts';
import { isSuccess } from '../../contract/envelope.ts';
import {
  INVOICE_CONTENT,
  INVOICE_TYPE_TEXT,
  INVOICE_TYPES,
  REMARK_MAX_CHARS,
  SHIPPING_TEXT,
} from '../../contract/invoice-codes.ts';
import { InvoiceAskBody, InvoiceMsg, InvoicePaths, type InvoicePreview } from '../../contract/invoice.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors } from '../shell/field.tsx';
import { fieldErrors, headsAndAddresses, idsOfQuery } from './invoice.server.ts';
import { OrdersTable } from './invoice-ui.tsx';

export const meta: Route.MetaFunction = () => [{ title: '申请开票 - 存证云' }];

const MONEY_RE = /^\d{1,12}$/;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const ids = idsOfQuery(url);
  if (!ids || ids.length === 0) return { ready: false as const, message: InvoiceMsg.ordersRequired };
  const queryMoney = url.searchParams.get('money') ?? '';
  const res = await authedCall<InvoicePreview>(request, context, InvoicePaths.invoicePreview, {
    body: { ids: `[${ids.join(',')}]`, money: MONEY_RE.test(queryMoney) ? queryMoney : undefined },
  });
  if (!isSuccess(res.code)) return { ready: false as const, message: res.msg };
  const p = res.data;
  const { heads, addresses, error } = await headsAndAddresses(request, context);
  return {
    ready: true as const,
    error,
    ids: p.orders.map((o) => o.id),
    orders: p.orders,
    money: p.money,
    yuan: formatFen(p.money),
    // A money in the query that is not the orders' total (or not a number at all) is said to have changed.
    moneyChanged: p.moneyChanged || (queryMoney !== '' && !MONEY_RE.test(queryMoney)),
    content: p.content || INVOICE_CONTENT,
    shipping: INVOICE_TYPES.map((t) => ({ type: INVOICE_TYPE_TEXT[t], text: SHIPPING_TEXT[p.shipping[t]] })),
    heads: heads.map((h) => ({
      id: String(h.id),
      label: `${h.head}（${INVOICE_TYPE_TEXT[h.type]}，纳税人识别号 ${h.taxNum}）`,
      shipping: SHIPPING_TEXT[p.shipping[h.type]],
    })),
    addresses: addresses.map((a) => ({
      id: String(a.id),
      label: `${a.name} ${a.phoneNumber} ${a.province}${a.city}${a.area}${a.address}`,
      isDefault: a.status === 1,
    })),
  };
}

/** What the form sends back when it is shown again. */
interface Values {
  userInvoiceId: string;
  userAddressId: string;
  remark: string;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const text = (name: string) => {
    const v = formData.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const values: Values = {
    userInvoiceId: text('userInvoiceId') ?? '',
    userAddressId: text('userAddressId') ?? '',
    remark: text('remark') ?? '',
  };
  const parsed = InvoiceAskBody.safeParse({
    ids: formData.getAll('ids'),
    userInvoiceId: text('userInvoiceId'),
    userAddressId: text('userAddressId'),
    remark: text('remark'),
    money: text('money'),
  });
  if (!parsed.success)
    return data({ values, errors: fieldErrors(parsed.error.issues), formError: null }, { status: 400 });
  const v = parsed.data;
  const res = await authedCall<{ id: number }>(request, context, InvoicePaths.invoiceAsk, {
    body: {
      ids: `[${v.ids.join(',')}]`,
      userInvoiceId: v.userInvoiceId,
      userAddressId: v.userAddressId,
      remark: v.remark ?? '',
      money: v.money,
    },
  });
  if (!isSuccess(res.code)) return data({ values, errors: {}, formError: res.msg }, { status: 400 });
  return redirect('/invoice?activeName=1&done=asked');
}

export default function MakeOutInvoice({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.ready) {
    return (
      <section className="page">
        <h1>申请开票</h1>
        <FormErrors errors={[loaderData.message]} />
        <p>
          <Link to="/orders">返回我的订单</Link>
        </p>
      </section>
    );
  }
  const d = loaderData;
  const values: Values = actionData?.values ?? { userInvoiceId: '', userAddressId: '', remark: '' };
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/orders">我的订单</Link> / 申请开票
      </p>
      <h1>申请开票</h1>
      <FormErrors
        errors={[d.error, actionData?.formError, errors.ids, errors.money].filter((e): e is string => !!e)}
      />
      <h2 className="section-title">开票订单</h2>
      <OrdersTable rows={d.orders} />
      <p data-testid="invoice-money">
        开票金额：<strong>¥{d.yuan}</strong>，发票内容：{d.content}
      </p>
      {d.moneyChanged ? (
        <p className="form-notice" role="status" data-testid="money-changed">
          开票金额已按所选订单重新计算为 ¥{d.yuan}，与链接中的金额不一致，请以此为准。
        </p>
      ) : null}
      <Form method="post" className="card" noValidate>
        <CsrfInput />
        {d.ids.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <input type="hidden" name="money" value={d.money} />
        <Choices
          name="userInvoiceId"
          legend="发票信息"
          error={errors.userInvoiceId}
          chosen={values.userInvoiceId}
          items={d.heads.map((h) => ({ id: h.id, label: h.label, hint: h.shipping }))}
          empty="暂无发票抬头"
          addLink={{ to: '/invoice?activeName=2', text: '新增发票抬头' }}
        />
        <Choices
          name="userAddressId"
          legend="收货地址"
          error={errors.userAddressId}
          chosen={values.userAddressId}
          items={d.addresses.map((a) => ({ id: a.id, label: a.label, hint: a.isDefault ? '默认地址' : '' }))}
          empty="暂无收货地址"
          addLink={{ to: '/address', text: '管理收货地址' }}
        />
        <div className={errors.remark ? 'field field-invalid' : 'field'}>
          <label htmlFor="invoice-remark">备注</label>
          <textarea
            id="invoice-remark"
            name="remark"
            rows={3}
            maxLength={REMARK_MAX_CHARS}
            defaultValue={values.remark}
            aria-invalid={errors.remark ? true : undefined}
            aria-describedby={
              errors.remark ? 'invoice-remark-error invoice-remark-hint' : 'invoice-remark-hint'
            }
          />
          <div className="field-hint" id="invoice-remark-hint">
            选填，不超过{REMARK_MAX_CHARS}个字符
          </div>
          {errors.remark ? (
            <div className="field-error" id="invoice-remark-error" role="alert">
              {errors.remark}
            </div>
          ) : null}
        </div>
        <h2 className="section-title">寄送说明</h2>
        <ul data-testid="shipping-rules">
          {d.shipping.map((s) => (
            <li key={s.type}>
              {s.type}：{s.text}
            </li>
          ))}
        </ul>
        <p className="muted">不支持寄送至港澳台地区；仅可开具本年度订单的发票。</p>
        <button type="submit" className="button primary">
          提交申请
        </button>
      </Form>
    </section>
  );
}

/** A required radio list (heads or addresses) with its error and a link to add one. */
function Choices({
  name,
  legend,
  error,
  chosen,
  items,
  empty,
  addLink,
}: {
  name: string;
  legend: string;
  error: string | undefined;
  chosen: string;
  items: { id: string; label: string; hint: string }[];
  empty: string;
  addLink: { to: string; text: string };
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset
      className={error ? 'field field-invalid' : 'field'}
      aria-describedby={error ? errorId : undefined}
      data-testid={`${name}-choices`}
    >
      <legend>{legend}</legend>
      {items.length === 0 ? <p className="muted">{empty}</p> : null}
      {items.map((item) => (
        <label key={item.id} className="checkbox">
          <input type="radio" name={name} value={item.id} defaultChecked={item.id === chosen} /> {item.label}
          {item.hint ? <span className="muted">（{item.hint}）</span> : null}
        </label>
      ))}
      <p>
        <Link to={addLink.to}>{addLink.text}</Link>
      </p>
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}
