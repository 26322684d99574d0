/**
 * The page actions of the billing, invoice, KYC and notarisation areas against a fake upstream that records every
 * call: each acts only on its own intents and refuses a missing or unknown one with 400 请求参数错误 before calling
 * the platform (the notary payment likewise refuses a missing way to pay instead of spending points); and /orders
 * shows a failed invoice's 查看原因 link and a refunded consumption's 已退款 (spec 02 §4 "Orders").
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BillingPaths, type PointsOrderRow } from '../../contract/billing.ts';
import { InvoicePaths } from '../../contract/invoice.ts';
import { KycPaths } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { NotaryMsg } from '../../contract/notary-codes.ts';
import { NotaryPaths } from '../../contract/notary.ts';
import { perRequest, recordingUpstreamForSuite, signedInRequest } from '../../tests/support/route-actions.ts';
import { action as invoiceAction } from '../invoice/invoice.tsx';
import { submitEnterprise } from '../kyc/enterprise.server.ts';
import { action as notaryDetailAction } from '../notary/detail.tsx';
import { action as notaryListAction } from '../notary/list.tsx';
import { action as notaryPayAction } from '../notary/pay.tsx';
import Orders, { action as ordersAction, loader as ordersLoader } from './orders.tsx';

/** A recharge or consumption row as getOrderList answers it. */
function row(over: Partial<PointsOrderRow>): PointsOrderRow {
  return {
    id: 1,
    order_no: 'R2024',
    // this year (Beijing time): only this year's recharges can be invoiced
    create_time: `${new Date(Date.now() + 8 * 3600_000).getUTCFullYear()}-01-01 00:00:01`,
    desc: '购买积分',
    balance: 100,
    money: 10000,
    type: 1,
    pay_type: 2,
    pay_status: '已支付',
    status: 2,
    refunded: false,
    invoiceStatus: 0,
    failedApplicationId: null,
    canPay: false,
    expiresAt: 0,
    ...over,
  };
}

const ROWS: Record<string, PointsOrderRow[]> = {
  '1': [
    row({ id: 7, order_no: 'R-FAILED', invoiceStatus: 3, failedApplicationId: 9 }),
    row({ id: 8, order_no: 'R-NONE' }),
  ],
  '2': [
    row({ id: 5, order_no: 'C-REFUNDED', type: 2, pay_type: 1, money: 0, balance: 200, refunded: true }),
    row({ id: 4, order_no: 'C-PAID', type: 2, pay_type: 1, money: 0, balance: 200 }),
  ],
};
// the platform's text for a refunded consumption
ROWS['2']![0]!.pay_status = '已退款';

const suite = recordingUpstreamForSuite(({ path, query }) =>
  path === BillingPaths.getOrderList
    ? { code: 200, msg: '操作成功', data: { count: 2, list: ROWS[query.get('type') ?? '1'] ?? [] } }
    : undefined,
);
const { calls } = suite;

/** A signed-in request (session token and CSRF cookie) to `path`; a POST carries `form` with the matching token. */
const signedIn = (path: string, form?: Record<string, string>) => signedInRequest(suite.ctx, path, form);

/** The forms that carry no valid intent: missing, empty, unknown, a near miss. */
const BAD_INTENTS: Record<string, string>[] = [
  {},
  { intent: '' },
  { intent: 'remove' },
  { intent: 'DEL' },
  { intent: 'cancel ' },
];

/** A complete enterprise form (images kept: their stored http URLs, spec 02 §3) that the platform would take. */
const ENTERPRISE = {
  name: '示例科技有限公司',
  code: '91350100M000100Y43',
  address: '福建省福州市鼓楼区示例路1号',
  legalName: '张三',
  license: 'https://cunzheng.test/kyc/license.png',
  account: '示例科技有限公司',
  bank: '中国工商银行福州分行',
  bankNo: '6222021234567890123',
  mobileReserve: '13800138000',
  contactIdcard: '110105491231002',
  authorName: '李四',
  authorSex: '女',
  authorBrith: '1949-12-31',
  authorPhone: '13900139000',
  authorIdcard: '11010519491231002X',
  file: 'https://cunzheng.test/kyc/poa.png',
  authorFront: 'https://cunzheng.test/kyc/front.png',
  authorBack: 'https://cunzheng.test/kyc/back.png',
};

describe('unknown intents', () => {
  const refused = { data: { error: Msg.badRequest }, init: { status: 400 } };

  it('/orders: only intent=cancel cancels', async () => {
    for (const form of BAD_INTENTS) {
      const res = await ordersAction({
        request: await signedIn('/orders', { ...form, order_no: 'R20240601000000000000000000' }),
        context: perRequest(suite.ctx),
      } as never);
      expect(res, JSON.stringify(form)).toMatchObject(refused);
    }
    expect(calls).toEqual([]);
  });

  it('/invoice: only del deletes and save saves; anything else saves nothing', async () => {
    const head = { id: '3', head: '示例科技有限公司', type: 'ENTERPRISE', taxNum: '91350100M000100Y43' };
    for (const form of BAD_INTENTS) {
      const res = await invoiceAction({
        request: await signedIn('/invoice?activeName=2', { ...head, ...form }),
        context: perRequest(suite.ctx),
      } as never);
      expect(res, JSON.stringify(form)).toMatchObject({
        data: { error: Msg.badRequest },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
    const saved = (await invoiceAction({
      request: await signedIn('/invoice?activeName=2', { ...head, intent: 'save' }),
      context: perRequest(suite.ctx),
    } as never)) as Response;
    expect(saved.headers.get('location')).toBe('/invoice?activeName=2&done=edited');
    const deleted = (await invoiceAction({
      request: await signedIn('/invoice?activeName=2', { id: '3', intent: 'del' }),
      context: perRequest(suite.ctx),
    } as never)) as Response;
    expect(deleted.headers.get('location')).toBe('/invoice?activeName=2&done=deleted');
    expect(calls.map((c) => c.path)).toEqual([InvoicePaths.editInvoice, InvoicePaths.delInvoice]);
  });

  it('enterprise KYC: a complete form submits only with intent=submit', async () => {
    for (const form of BAD_INTENTS) {
      const res = await submitEnterprise(
        await signedIn('/organization-kyc', { ...ENTERPRISE, ...form }),
        perRequest(suite.ctx),
      );
      expect(res, JSON.stringify(form)).toMatchObject({
        data: { result: { status: 'error', error: { '': [Msg.badRequest] } } },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
    const submitted = (await submitEnterprise(
      await signedIn('/organization-kyc', { ...ENTERPRISE, intent: 'submit' }),
      perRequest(suite.ctx),
    )) as Response;
    expect(submitted.headers.get('location')).toBe('/organization-kyc?done=submitted');
    expect(calls.map((c) => c.path)).toEqual([KycPaths.companyAuthorize]);
  });

  it('notary list and detail: only stop ends an order and only paper asks for the paper copies', async () => {
    for (const form of BAD_INTENTS) {
      const stop = await notaryListAction({
        request: await signedIn('/notary', { ...form, orderId: '12' }),
        context: perRequest(suite.ctx),
      } as never);
      expect(stop, JSON.stringify(form)).toMatchObject(refused);
      const paper = await notaryDetailAction({
        request: await signedIn('/notary/detail?orderId=12', { ...form, orderId: '12' }),
        context: perRequest(suite.ctx),
      } as never);
      expect(paper, JSON.stringify(form)).toMatchObject(refused);
    }
    expect(calls).toEqual([]);
  });

  it('notary payment: a missing or unknown way to pay spends nothing and calls nothing', async () => {
    const noWay: Record<string, string>[] = [
      {},
      { payType: '' },
      { payType: '0' },
      { payType: '4' },
      { payType: '1 ' },
    ];
    for (const form of noWay) {
      const res = await notaryPayAction({
        request: await signedIn('/attestation-list/readingMaterial/pay/12/1', form),
        context: perRequest(suite.ctx),
        params: { orderId: '12', type: '1' },
      } as never);
      expect(res, JSON.stringify(form)).toMatchObject({
        data: { error: NotaryMsg.payTypeRequired },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
    expect(NotaryPaths.pay).toBe('/api/Evidences/pay');
  });
});

/** /orders rendered on the server with what its loader gave for `search`. */
async function ordersHtml(search: string): Promise<string> {
  const loaderData = await ordersLoader({
    request: await signedIn(`/orders${search}`),
    context: perRequest(suite.ctx),
  } as never);
  const Page = Orders as unknown as (props: { loaderData: unknown; actionData: unknown }) => React.ReactNode;
  const Stub = createRoutesStub([
    { path: '/orders', Component: () => <Page loaderData={loaderData} actionData={undefined} /> },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={[`/orders${search}`]} />);
}

describe('/orders rows', () => {
  it('links a failed invoice (开票失败) to its rejected application, whose page shows the reason', async () => {
    const html = await ordersHtml('');
    expect(html).toContain('开票失败');
    expect(html).toContain('href="/invoice/details?id=9"');
    expect(html).toContain('>查看原因</a>');
    expect(html.match(/查看原因<\/a>/g)).toHaveLength(1);
    // still selectable for a new application (spec 02 §4: failed allows re-application)
    expect(html).toContain('aria-label="选择订单R-FAILED开票"');
  });

  it('shows a consumption whose points were given back as 已退款', async () => {
    const html = await ordersHtml('?type=2');
    const cells = (no: string) => html.slice(html.indexOf(no), html.indexOf('</tr>', html.indexOf(no)));
    expect(cells('C-REFUNDED')).toContain('<td data-label="状态">已退款</td>');
    expect(cells('C-PAID')).toContain('<td data-label="状态">已支付</td>');
  });
});
