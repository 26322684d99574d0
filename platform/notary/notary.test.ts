/**
 * Notarisation orders on the platform, on SQLite and PostgreSQL (spec 02 §3, §4, §7 "Notary", §9;
 * decision 034): a verified user orders over their own preserved evidences at the configured price; the list's
 * filters and pages; the detail; ending an unfinished order, once; another user's orders and evidences are not found;
 * an unverified user cannot order.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BillingPaths,
  type NotaryOrderRow as OrdersTabRow,
  type OrderListData,
} from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import { KycMsg } from '../../contract/kyc.ts';
import {
  MAX_ORDER_EVIDENCES,
  NOTARY_TYPES,
  type NotaryDetailData,
  NotaryMsg,
  type NotaryOrderCreated,
  type NotaryOrderListData,
  NotaryPaths,
  notaryRowActions,
  NotaryStep,
  orderPrice,
} from '../../contract/notary.ts';
import { userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, post, registerUser, login, upload } from '../../tests/support/platform.ts';

describe('notary codes', () => {
  it('prices an order per evidence and tells what a row offers (spec 02 §4)', () => {
    const t = NOTARY_TYPES[0]!;
    expect(t.name).toBe('保全证据公证');
    expect(orderPrice(t.type, 3)).toBe(3 * t.pointsPerRecord);
    expect(orderPrice(99, 3)).toBeUndefined();
    expect(notaryRowActions({ pay: 1, notarial: null })).toBe('continue-or-end');
    expect(notaryRowActions({ pay: 2, notarial: 1 })).toBe('details');
    expect(notaryRowActions({ pay: 2, notarial: 2 })).toBe('details');
    expect(notaryRowActions({ pay: 3, notarial: 3 })).toBe('none');
    expect(notaryRowActions({ pay: 2, notarial: 4 })).toBe('none');
  });
});

forEachDialect('notary orders', (h) => {
  const newUser = userFactory(h);
  let a: { token: string };
  let b: { token: string };
  const evidencesOf = async (token: string, n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const saved = await upload<SaveEvidenceData>(h.app, token, randomBytes(64), `n${i}.txt`, {
        title: `证据${i}`,
      });
      expect(saved.code).toBe(200);
      ids.push(saved.data.id);
    }
    return ids;
  };
  let idsA: number[];
  let idsB: number[];
  beforeAll(async () => {
    a = await newUser();
    b = await newUser();
    idsA = await evidencesOf(a.token, 3);
    idsB = await evidencesOf(b.token, 1);
  });
  const type = NOTARY_TYPES[0]!.type;
  const create = (token: string, body: Record<string, unknown>) =>
    post<NotaryOrderCreated>(h.app, NotaryPaths.createOrder, body, token);

  it('creates an order over two evidences at their price, at the first step, unpaid', async () => {
    const res = await create(a.token, { type, ids: [idsA[0], idsA[1], idsA[0]] });
    expect([res.code, res.msg]).toEqual([200, NotaryMsg.created]);
    expect(res.data).toMatchObject({
      type,
      number: 2,
      money: orderPrice(type, 2),
      step: NotaryStep.applicationForm,
    });
    expect(res.data.orderNo).toMatch(/^N\d{8}[0-9a-f]{20}$/);
    // a form's comma-separated list works the same
    const form = await post<NotaryOrderCreated>(
      h.app,
      NotaryPaths.createOrder,
      { type: String(type), ids: `${idsA[2]}` },
      a.token,
      true,
    );
    expect([form.code, form.data.number]).toEqual([200, 1]);
  });

  it("refuses an unknown type, no evidence, too many, another user's, a deleted or unknown evidence", async () => {
    expect((await create(a.token, { type: 9, ids: [idsA[0]] })).msg).toBe(NotaryMsg.typeRequired);
    expect((await create(a.token, { type })).msg).toBe(NotaryMsg.evidencesRequired);
    const many = Array.from({ length: MAX_ORDER_EVIDENCES + 1 }, (_, i) => i + 1);
    expect((await create(a.token, { type, ids: many })).msg).toBe(NotaryMsg.tooManyEvidences);
    const theirs = await create(a.token, { type, ids: [idsA[0], idsB[0]] });
    expect([theirs.code, theirs.msg]).toEqual([ApiCode.NOT_FOUND, NotaryMsg.evidenceNotFound]);
    expect((await create(a.token, { type, ids: [987654321] })).code).toBe(ApiCode.NOT_FOUND);
    const [gone] = await evidencesOf(a.token, 1);
    await h.app.pdb.db.updateTable('evidences').set({ deleted_at: 1 }).where('id', '=', gone!).execute();
    expect((await create(a.token, { type, ids: [gone] })).code).toBe(ApiCode.NOT_FOUND);
    // nothing was written by the refusals
    const list = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, {}, a.token);
    expect(list.data.count).toBe(2);
  });

  it('lets only a verified user order', async () => {
    const mobile = '13711119999';
    await registerUser(h.app, h.dataDir, mobile, 'pass1234', false);
    const token = await login(h.app, mobile, 'pass1234');
    const res = await create(token, { type, ids: [idsA[0]] });
    expect([res.code, res.msg]).toEqual([ApiCode.KYC_REQUIRED, KycMsg.kycRequired]);
  });

  it('lists newest first, 10 a page, with the filters; another user sees none of it', async () => {
    for (let i = 0; i < 10; i++) expect((await create(a.token, { type, ids: [idsA[i % 3]] })).code).toBe(200);
    const page1 = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, {}, a.token);
    expect(page1.data.count).toBe(12);
    expect(page1.data.list).toHaveLength(10);
    const ids = page1.data.list.map((r) => r.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    const page2 = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, { page: 2 }, a.token);
    expect(page2.data.list).toHaveLength(2);
    expect(page1.data.list[0]).toMatchObject({ pay: 1, notarial: null, step: 1 });
    expect(page1.data.list[0]!.addTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const one = page1.data.list[3]!;
    const byNo = await get<NotaryOrderListData>(
      h.app,
      NotaryPaths.orderList,
      { orderNo: one.orderNo },
      a.token,
    );
    expect(byNo.data.list.map((r) => r.id)).toEqual([one.id]);
    const prefix = await get<NotaryOrderListData>(
      h.app,
      NotaryPaths.orderList,
      { orderNo: one.orderNo.slice(0, 9) },
      a.token,
    );
    expect(prefix.data.count).toBe(12);
    const future = await get<NotaryOrderListData>(
      h.app,
      NotaryPaths.orderList,
      { startTime: Math.floor(Date.now() / 1000) + 3600 },
      a.token,
    );
    expect(future.data.count).toBe(0);
    const paid = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, { payType: 2 }, a.token);
    expect(paid.data.count).toBe(0);
    const unfinished = await get<NotaryOrderListData>(
      h.app,
      NotaryPaths.orderList,
      { notarialType: 0 },
      a.token,
    );
    expect(unfinished.data.count).toBe(12);
    const bad = await get(h.app, NotaryPaths.orderList, { payType: 'x' }, a.token);
    expect(bad.code).toBe(ApiCode.BAD_REQUEST);

    expect((await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, {}, b.token)).data.count).toBe(0);
  });

  it('shows the detail with its evidences; another user gets 404', async () => {
    const made = await create(a.token, { type, ids: [idsA[1], idsA[0]] });
    const detail = await get<NotaryDetailData>(h.app, NotaryPaths.detail, { orderId: made.data.id }, a.token);
    expect(detail.code).toBe(200);
    expect(detail.data.info).toMatchObject({
      orderNo: made.data.orderNo,
      money: made.data.money,
      pay: 1,
      payType: null,
      notarial: null,
      step: 1,
    });
    expect(detail.data.count).toBe(2);
    expect(detail.data.list.map((e) => e.id)).toEqual([idsA[0], idsA[1]]);
    expect(detail.data.list[0]).toMatchObject({ title: '证据0', algorithm: 'SHA-256', name: 'n0.txt' });
    expect(detail.data.list[0]!.fileHash).toMatch(/^[0-9a-f]{64}$/);
    const other = await get(h.app, NotaryPaths.detail, { orderId: made.data.id }, b.token);
    expect([other.code, other.msg]).toEqual([ApiCode.NOT_FOUND, NotaryMsg.orderNotFound]);
  });

  it('ends an unfinished order once: cancelled and terminated; not for another user', async () => {
    const made = await create(a.token, { type, ids: [idsA[2]] });
    const theirs = await post(h.app, NotaryPaths.stop, { orderId: made.data.id }, b.token);
    expect([theirs.code, theirs.msg]).toEqual([ApiCode.NOT_FOUND, NotaryMsg.orderNotFound]);
    const [first, second] = await Promise.all([
      post(h.app, NotaryPaths.stop, { orderId: made.data.id }, a.token),
      post(h.app, NotaryPaths.stop, { orderId: made.data.id }, a.token),
    ]);
    expect([first.msg, second.msg].sort()).toEqual([NotaryMsg.orderClosed, NotaryMsg.stopped].sort());
    const detail = await get<NotaryDetailData>(h.app, NotaryPaths.detail, { orderId: made.data.id }, a.token);
    expect(detail.data.info).toMatchObject({ pay: 3, notarial: 3 });
    expect(notaryRowActions(detail.data.info)).toBe('none');
    const closed = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, { payType: 3 }, a.token);
    expect(closed.data.list.map((r) => r.id)).toEqual([made.data.id]);
  });

  it('fills tab 3 (公证出证) of the orders list with the pay texts and its pay filter', async () => {
    const tab = (isType?: number) =>
      get<OrderListData<OrdersTabRow>>(h.app, BillingPaths.getOrderList, { type: 3, isType }, a.token);
    const all = await tab();
    const own = await get<NotaryOrderListData>(h.app, NotaryPaths.orderList, {}, a.token);
    expect(all.data.count).toBe(own.data.count);
    expect(all.data.list[0]).toMatchObject({
      id: own.data.list[0]!.id,
      orderNo: own.data.list[0]!.orderNo,
      money: own.data.list[0]!.money,
      type: NOTARY_TYPES[0]!.type,
    });
    const cancelled = await tab(3);
    expect(cancelled.data.list.map((r) => r.pay)).toEqual(['已取消订单']);
    expect((await tab(1)).data.list.every((r) => r.pay === '待支付')).toBe(true);
    expect((await tab(4)).data.count).toBe(0);
    const other = await get<OrderListData<OrdersTabRow>>(
      h.app,
      BillingPaths.getOrderList,
      { type: 3 },
      b.token,
    );
    expect(other.data.count).toBe(0);
  });
});
