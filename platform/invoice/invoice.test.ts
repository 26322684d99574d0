/**
 * Invoices, the user's side, through `fastify.inject` on SQLite and PostgreSQL (spec 02 §2 "Invoices", §3, §4
 * "Orders", §5 "Invoice heads", "Invoice application", §7, §9; docs/decisions/022-invoices.md): heads with their
 * rules and the limit of 5 under concurrency; applications whose money is recomputed, refused for a forged money, a
 * balance-paid order, last year's order, another user's order, 6 orders, a 151-character remark and an address in
 * Hong Kong; a 150-character remark with a CRLF line break (one character, as the textarea counts) kept as LF; one
 * live application per order under concurrency; the list, the detail with its snapshots, and another user's heads
 * and applications answering 404.
 */
import { beforeAll, expect, it } from 'vitest';
import { AddressMsg } from '../../contract/address.ts';
import { BillingPaths, type OrderListData, type PointsOrderRow } from '../../contract/billing.ts';
import {
  InvoiceBlockMsg,
  InvoiceMsg,
  InvoicePaths,
  type InvoiceDetailData,
  type InvoiceHead,
  type InvoiceListData,
  type InvoicePreview,
} from '../../contract/invoice.ts';
import { Msg } from '../../contract/messages.ts';
import { userFactory } from '../../tests/support/account.ts';
import {
  ADDRESS,
  E_HEAD,
  SPECIAL_HEAD,
  addAddress,
  addHead,
  beijingYearStart,
  paidOrder,
  userId,
} from '../../tests/support/invoice.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';

forEachDialect('invoices', (h) => {
  const newUser = userFactory(h);
  /** A fresh user with their id, a head and an address. */
  async function applicant(head: Record<string, string> = E_HEAD) {
    const u = await newUser();
    const uid = await userId(h.app, u.mobile);
    return {
      ...u,
      uid,
      head: await addHead(h.app, u.token, head),
      address: await addAddress(h.app, u.token),
    };
  }
  type Applicant = Awaited<ReturnType<typeof applicant>>;
  const ask = (a: Applicant, ids: number[], extra: Record<string, string> = {}) =>
    post<{ id: number }>(
      h.app,
      InvoicePaths.invoiceAsk,
      {
        ids: `[${ids.join(',')}]`,
        userInvoiceId: String(a.head.id),
        userAddressId: String(a.address.id),
        ...extra,
      },
      a.token,
      true,
    );
  const invoiceStatuses = async (token: string) => {
    const r = await get<OrderListData<PointsOrderRow>>(h.app, BillingPaths.getOrderList, { type: 1 }, token);
    return Object.fromEntries(r.data.list.map((o) => [o.id, o.invoiceStatus]));
  };

  let a: Applicant;
  beforeAll(async () => {
    a = await applicant();
  });

  it('keeps heads: the rules, 新增成功 / 修改成功 / 已删除该条发票抬头, another user 404', async () => {
    const u = await newUser();
    const missingBank = await post(
      h.app,
      InvoicePaths.addInvoice,
      { ...SPECIAL_HEAD, bankName: '' },
      u.token,
      true,
    );
    expect([missingBank.code, missingBank.msg]).toEqual([400, '开户银行不能为空']);
    const badTax = await post(
      h.app,
      InvoicePaths.addInvoice,
      { ...E_HEAD, taxNum: '91330100MA27XL0E2M' },
      u.token,
      true,
    );
    expect(badTax.msg).toBe(InvoiceMsg.taxNumInvalid);
    const noType = await post(h.app, InvoicePaths.addInvoice, { ...E_HEAD, type: '' }, u.token, true);
    expect(noType.msg).toBe(InvoiceMsg.typeRequired);

    const added = await post<InvoiceHead>(h.app, InvoicePaths.addInvoice, SPECIAL_HEAD, u.token, true);
    expect([added.code, added.msg]).toEqual([200, InvoiceMsg.headAdded]);
    expect(added.data).toMatchObject({
      head: SPECIAL_HEAD.head,
      type: 'ENTERPRISE_SPECIAL',
      bankName: SPECIAL_HEAD.bankName,
    });
    const e = await post<InvoiceHead>(
      h.app,
      InvoicePaths.addInvoice,
      { ...E_HEAD, taxNum: E_HEAD.taxNum.toLowerCase() },
      u.token,
      true,
    );
    expect(e.data).toMatchObject({ taxNum: E_HEAD.taxNum, bankName: '', account: '' });

    const edited = await post<InvoiceHead>(
      h.app,
      InvoicePaths.editInvoice,
      { ...E_HEAD, id: String(e.data.id), head: '新名称有限公司' },
      u.token,
      true,
    );
    expect([edited.msg, edited.data.head]).toEqual([InvoiceMsg.headEdited, '新名称有限公司']);

    const other = await newUser();
    const foreignEdit = await post(
      h.app,
      InvoicePaths.editInvoice,
      { ...E_HEAD, id: String(e.data.id) },
      other.token,
      true,
    );
    expect([foreignEdit.code, foreignEdit.msg]).toEqual([404, InvoiceMsg.headNotFound]);
    const foreignDel = await post(
      h.app,
      InvoicePaths.delInvoice,
      { id: String(e.data.id) },
      other.token,
      true,
    );
    expect([foreignDel.code, foreignDel.msg]).toEqual([404, InvoiceMsg.headNotFound]);
    expect((await get<InvoiceHead[]>(h.app, InvoicePaths.riseList, {}, other.token)).data).toEqual([]);

    const del = await post(h.app, InvoicePaths.delInvoice, { id: String(added.data.id) }, u.token, true);
    expect([del.code, del.msg]).toEqual([200, InvoiceMsg.headDeleted]);
    const list = await get<InvoiceHead[]>(h.app, InvoicePaths.riseList, {}, u.token);
    expect(list.data.map((x) => x.head)).toEqual(['新名称有限公司']);
  });

  it('ends 10 concurrent head additions of one user with exactly 5 heads', async () => {
    const u = await newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(h.app, InvoicePaths.addInvoice, { ...E_HEAD, head: `公司${i}` }, u.token, true),
      ),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.code !== 200);
    expect(refused.map((r) => r.msg)).toEqual(Array(5).fill('最多保存 5 个发票抬头信息'));
    expect((await get<InvoiceHead[]>(h.app, InvoicePaths.riseList, {}, u.token)).data).toHaveLength(5);
  });

  it('previews the money recomputed from the orders and flags a different page money', async () => {
    const o1 = await paidOrder(h.app, a.uid, { amountFen: 15000 });
    const o2 = await paidOrder(h.app, a.uid, { amountFen: 6000 });
    const r = await post<InvoicePreview>(
      h.app,
      InvoicePaths.invoicePreview,
      { ids: `${o1.id},${o2.id}`, money: '100' },
      a.token,
      true,
    );
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      money: 21000,
      moneyChanged: true,
      content: '技术服务费',
      shipping: { ENTERPRISE: 'electronic', ENTERPRISE_SPECIAL: 'free' },
    });
    expect(r.data.orders.map((o) => o.order_no)).toEqual([o1.orderNo, o2.orderNo]);
    const same = await post<InvoicePreview>(
      h.app,
      InvoicePaths.invoicePreview,
      { ids: `[${o2.id}]`, money: '6000' },
      a.token,
      true,
    );
    expect(same.data).toMatchObject({
      money: 6000,
      moneyChanged: false,
      shipping: { ENTERPRISE_SPECIAL: 'cod' },
    });
  });

  it('refuses a forged money, a balance-paid order, last year’s order, another user’s order, 6 orders, a long remark', async () => {
    const o = await paidOrder(h.app, a.uid, { amountFen: 5000 });
    const forged = await ask(a, [o.id], { money: '1' });
    expect([forged.code, forged.msg]).toEqual([400, InvoiceMsg.moneyMismatch]);

    const spend = await paidOrder(h.app, a.uid, { kind: 'spend' });
    const balance = await ask(a, [o.id, spend.id]);
    expect([balance.code, balance.msg]).toEqual([
      400,
      InvoiceMsg.orderNotInvoiceable(spend.orderNo, InvoiceBlockMsg.balance),
    ]);

    const old = await paidOrder(h.app, a.uid, { createdAt: beijingYearStart() - 3600 });
    const lastYear = await ask(a, [old.id]);
    expect([lastYear.code, lastYear.msg]).toEqual([
      400,
      InvoiceMsg.orderNotInvoiceable(old.orderNo, InvoiceBlockMsg.otherYear),
    ]);
    const thisYear = await paidOrder(h.app, a.uid, { createdAt: beijingYearStart() + 1 });
    expect(
      (await post(h.app, InvoicePaths.invoicePreview, { ids: String(thisYear.id) }, a.token, true)).code,
    ).toBe(200);

    const b = await applicant();
    const theirs = await paidOrder(h.app, b.uid);
    const foreign = await ask(a, [o.id, theirs.id]);
    expect([foreign.code, foreign.msg]).toEqual([404, InvoiceMsg.orderNotFound]);
    const foreignPreview = await post(
      h.app,
      InvoicePaths.invoicePreview,
      { ids: String(theirs.id) },
      a.token,
      true,
    );
    expect([foreignPreview.code, foreignPreview.msg]).toEqual([404, InvoiceMsg.orderNotFound]);

    const six = await Promise.all(
      Array.from({ length: 6 }, () => paidOrder(h.app, a.uid, { amountFen: 100 })),
    );
    expect(
      (
        await ask(
          a,
          six.map((x) => x.id),
        )
      ).msg,
    ).toBe(InvoiceMsg.tooManyOrders);
    expect((await ask(a, [o.id], { remark: '备'.repeat(151) })).msg).toBe(InvoiceMsg.remarkTooLong);
    expect((await ask(a, [])).msg).toBe(InvoiceMsg.ordersRequired);
    expect((await ask(a, [o.id], { userInvoiceId: '' })).msg).toBe(InvoiceMsg.headRequired);
    expect((await ask(a, [o.id], { userAddressId: '' })).msg).toBe(InvoiceMsg.addressRequired);
    const foreignHead = await ask(a, [o.id], { userInvoiceId: String(b.head.id) });
    expect([foreignHead.code, foreignHead.msg]).toEqual([404, InvoiceMsg.headNotFound]);
    const foreignAddress = await ask(a, [o.id], { userAddressId: String(b.address.id) });
    expect([foreignAddress.code, foreignAddress.msg]).toEqual([404, InvoiceMsg.addressNotFound]);

    // An address in Hong Kong (refused by the address calls, so written directly) is refused here too.
    const hk = await h.app.pdb.db
      .insertInto('addresses')
      .values({
        user_id: a.uid,
        name: ADDRESS.name,
        province: '香港特别行政区',
        city: '香港特别行政区',
        area: '中西区',
        address: '皇后大道中 1 号',
        phone_number: ADDRESS.phoneNumber,
        email: ADDRESS.email,
        status: 0,
        created_at: 1,
        updated_at: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hkAsk = await ask(a, [o.id], { userAddressId: String(hk.id) });
    expect([hkAsk.code, hkAsk.msg]).toEqual([400, AddressMsg.noShipping]);
    await h.app.pdb.db.deleteFrom('addresses').where('id', '=', hk.id).execute();

    // Nothing of the refused asks was kept: the order is still free.
    expect((await invoiceStatuses(a.token))[o.id]).toBe(0);
    const list = await post<InvoiceListData>(h.app, InvoicePaths.invoiceList, {}, a.token, true);
    expect(list.data.count).toBe(0);
  });

  it('files an application with snapshots; the orders move to 1 and cannot be asked again', async () => {
    const c = await applicant(SPECIAL_HEAD);
    const o1 = await paidOrder(h.app, c.uid, { amountFen: 12000 });
    const o2 = await paidOrder(h.app, c.uid, { amountFen: 8000 });
    const r = await ask(c, [o1.id, o2.id], { money: '20000', remark: '请尽快开具' });
    expect([r.code, r.msg]).toEqual([200, '提交成功']);
    expect(await invoiceStatuses(c.token)).toMatchObject({ [o1.id]: 1, [o2.id]: 1 });

    // the head and address change afterwards; the application keeps what was asked
    await post(
      h.app,
      InvoicePaths.editInvoice,
      { ...SPECIAL_HEAD, id: String(c.head.id), head: '改名公司' },
      c.token,
      true,
    );
    await post(h.app, InvoicePaths.delInvoice, { id: String(c.head.id) }, c.token, true);
    const d = await post<InvoiceDetailData>(
      h.app,
      InvoicePaths.invoiceDetail,
      { id: String(r.data.id) },
      c.token,
      true,
    );
    expect(d.data.detail).toMatchObject({
      status: 1,
      money: 20000,
      type: 'ENTERPRISE_SPECIAL',
      head: SPECIAL_HEAD.head,
      tax_num: SPECIAL_HEAD.taxNum,
      bank_name: SPECIAL_HEAD.bankName,
      name: ADDRESS.name,
      post_phone_number: ADDRESS.phoneNumber,
      address: '浙江省杭州市西湖区文三路 100 号',
      remark: '请尽快开具',
      check_remark: '',
      courier_number: '',
      content: '技术服务费',
      shipping: 'free',
      files: [],
    });
    expect(d.data.detail.order_no).toMatch(/^F\d{8}[0-9a-f]{20}$/);
    expect(d.data.orderList.map((o) => [o.order_no, o.money, o.pay_type])).toEqual([
      [o1.orderNo, 12000, 2],
      [o2.orderNo, 8000, 2],
    ]);

    const again = await ask({ ...c, head: await addHead(h.app, c.token) }, [o2.id]);
    expect(again.msg).toBe(InvoiceMsg.orderNotInvoiceable(o2.orderNo, InvoiceBlockMsg.inProgress));

    const list = await post<InvoiceListData>(
      h.app,
      InvoicePaths.invoiceList,
      { page: '1', status: '1' },
      c.token,
      true,
    );
    expect(list.data).toMatchObject({
      count: 1,
      list: [{ id: r.data.id, money: 20000, orderCount: 2, status: 1 }],
    });
    const none = await post<InvoiceListData>(h.app, InvoicePaths.invoiceList, { status: '3' }, c.token, true);
    expect(none.data.count).toBe(0);
    const future = await post<InvoiceListData>(
      h.app,
      InvoicePaths.invoiceList,
      { startTime: String(Math.floor(Date.now() / 1000) + 3600) },
      c.token,
      true,
    );
    expect(future.data.count).toBe(0);
    const notRejected = await post(h.app, InvoicePaths.checkFail, { id: String(r.data.id) }, c.token, true);
    expect([notRejected.code, notRejected.msg]).toEqual([400, InvoiceMsg.notRejected]);

    // another user: 404 everywhere
    for (const path of [InvoicePaths.invoiceDetail, InvoicePaths.checkFail]) {
      const x = await post(h.app, path, { id: String(r.data.id) }, a.token, true);
      expect([x.code, x.msg]).toEqual([404, InvoiceMsg.applicationNotFound]);
    }
    const file = await post(
      h.app,
      InvoicePaths.invoiceFile,
      { id: String(r.data.id), fileId: '1' },
      a.token,
      true,
    );
    expect([file.code, file.msg]).toEqual([404, InvoiceMsg.applicationNotFound]);
    expect((await post<InvoiceListData>(h.app, InvoicePaths.invoiceList, {}, a.token, true)).data.count).toBe(
      0,
    );
    expect((await post(h.app, InvoicePaths.invoiceList, {})).code).toBe(408);
    expect((await post(h.app, InvoicePaths.invoiceDetail, { id: 'x' }, c.token, true)).msg).toBe(
      Msg.invalidId,
    );
  });

  it('counts a remark’s line break as one character, as the textarea does, and keeps it as LF', async () => {
    const c = await applicant();
    const o = await paidOrder(h.app, c.uid, { amountFen: 3000 });
    // 150 characters with the break counted once; the form sends it as CRLF (151 code units).
    const crlf = `${'甲'.repeat(74)}\r\n${'乙'.repeat(75)}`;
    const r = await ask(c, [o.id], { remark: crlf });
    expect([r.code, r.msg]).toEqual([200, '提交成功']);
    const d = await post<InvoiceDetailData>(
      h.app,
      InvoicePaths.invoiceDetail,
      { id: String(r.data.id) },
      c.token,
      true,
    );
    expect(d.data.detail.remark).toBe(`${'甲'.repeat(74)}\n${'乙'.repeat(75)}`);
    // A lone CR is a break too; 151 characters after normalising are still refused.
    const o2 = await paidOrder(h.app, c.uid, { amountFen: 3000 });
    const long = await ask(c, [o2.id], { remark: `${'甲'.repeat(75)}\r${'乙'.repeat(75)}` });
    expect([long.code, long.msg]).toEqual([400, InvoiceMsg.remarkTooLong]);
  });

  it('lets exactly one of concurrent applications for the same order succeed', async () => {
    const c = await applicant();
    const o = await paidOrder(h.app, c.uid);
    const others = await Promise.all(Array.from({ length: 4 }, () => paidOrder(h.app, c.uid)));
    const results = await Promise.all(others.map((x) => ask(c, [o.id, x.id])));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200))
      expect(r.msg).toBe(InvoiceMsg.orderNotInvoiceable(o.orderNo, InvoiceBlockMsg.inProgress));
    const rows = await h.app.pdb.db
      .selectFrom('invoice_application_orders')
      .select('application_id')
      .where('order_id', '=', o.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await post<InvoiceListData>(h.app, InvoicePaths.invoiceList, {}, c.token, true)).data.count).toBe(
      1,
    );
  });
});
