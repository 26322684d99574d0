/**
 * Steps 2–4 of a notarisation order, its refund, the notary office's decisions and the public check, on SQLite and
 * PostgreSQL (decision 034): the documents come only from the gateway (internal key) and only as four PDFs;
 * the extraction code authorises the office; paying with points writes one consumption row, and two concurrent
 * payments charge once; ending a paid order refunds it once; the office accepts, sends back, terminates (refund) and
 * issues; the public check confirms the number and the PDF's hash; another user's order and an operator without the
 * notary role get nothing.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { type Address, AddressPaths } from '../../contract/address.ts';
import { ApiCode } from '../../contract/envelope.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import {
  NOTARY_TYPES,
  type NotarialCheckData,
  type NotaryDocumentData,
  type NotaryDownData,
  NotaryMsg,
  type NotaryOrderCreated,
  NotaryPaths,
  type NotaryPayNews,
  NotaryStep,
  orderPrice,
  type NotaryDetailData,
} from '../../contract/notary.ts';
import {
  NotaryOpsMsg,
  NotaryOpsPaths,
  type NotaryOpsDetail,
  type NotaryQueueData,
} from '../../contract/notary-office.ts';
import { OpsMsg } from '../../contract/ops.ts';
import {
  BillingPaths,
  type OrderDetail,
  PayStatus,
  REFUNDED_TEXT,
  type OrderListData,
  type PayData,
  type PointsOrderRow,
} from '../../contract/billing.ts';
import { applyTrade } from '../billing/apply.ts';
import { journalSum } from '../billing/journal.ts';
import { creditPoints, userIdOf as userIdOfSupport } from '../../tests/support/billing.ts';
import { ADDRESS, userFactory } from '../../tests/support/account.ts';
import { operatorToken, pdfBytes } from '../../tests/support/invoice.ts';
import { call, forEachDialect, get, multipart, post, upload } from '../../tests/support/platform.ts';

forEachDialect('notary workflow (steps 2-4, office, public check)', (h) => {
  const newUser = userFactory(h);
  const type = NOTARY_TYPES[0]!.type;
  let office: string;
  let finance: string;

  const userIdOf = (mobile: string) => userIdOfSupport(h.app, mobile);
  const credit = (mobile: string, points: number) => creditPoints(h.app, mobile, points);

  const balance = async (mobile: string) =>
    Number(
      (
        await h.app.pdb.db
          .selectFrom('users')
          .select('points')
          .where('mobile', '=', mobile)
          .executeTakeFirstOrThrow()
      ).points,
    );

  /** A new order of two evidences of the user, with step 1 saved (at step 2). */
  async function orderAtStep2(u: { token: string }): Promise<NotaryOrderCreated> {
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const saved = await upload<SaveEvidenceData>(h.app, u.token, randomBytes(48), `w${i}.txt`);
      ids.push(saved.data.id);
    }
    const made = await post<NotaryOrderCreated>(h.app, NotaryPaths.createOrder, { type, ids }, u.token);
    expect(made.code).toBe(200);
    const address = await post<Address>(h.app, AddressPaths.addAddress, ADDRESS, u.token);
    const saved = await post(
      h.app,
      NotaryPaths.saveApplication,
      { orderId: made.data.id, purpose: '诉讼', usePlace: '北京', copies: 2, addressId: address.data.id },
      u.token,
    );
    expect(saved.code).toBe(200);
    return made.data;
  }

  /** Sends the four documents (or `override` parts) as the gateway does. */
  function submitDocs(token: string, orderId: number, opts: { key?: string | null; docs?: Buffer[] } = {}) {
    const docs = opts.docs ?? [1, 2, 3, 4].map((i) => pdfBytes(`doc${i}`));
    const boundary = `----cz${randomBytes(8).toString('hex')}`;
    const parts: Buffer[] = [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n`),
    ];
    docs.forEach((d, i) =>
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="doc${i + 1}"; filename="d${i + 1}.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        d,
        Buffer.from('\r\n'),
      ),
    );
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const key = opts.key === undefined ? h.app.internalKey : opts.key;
    if (key !== null) headers['x-internal-key'] = key;
    return h.app.inject({
      method: 'POST',
      url: NotaryPaths.submitDocuments,
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload: Buffer.concat(parts),
    });
  }

  async function userCode(token: string): Promise<string> {
    return (await get<{ extractCode: string }>(h.app, '/api/user/getAuthInfo', {}, token)).data.extractCode;
  }

  /** Takes an order at step 2 through signature, authorisation and payment with points. */
  async function paidOrder(u: { mobile: string; token: string }): Promise<NotaryOrderCreated> {
    const order = await orderAtStep2(u);
    expect((await submitDocs(u.token, order.id)).statusCode).toBe(200);
    expect(
      (await post(h.app, NotaryPaths.deCode, { orderId: order.id, code: await userCode(u.token) }, u.token))
        .code,
    ).toBe(200);
    await credit(u.mobile, order.money);
    const paid = await post(h.app, NotaryPaths.pay, { orderId: order.id, payType: 1 }, u.token);
    expect([paid.code, paid.msg]).toEqual([200, NotaryMsg.paid]);
    return order;
  }

  const ops = (token: string, path: string, body: Record<string, unknown>) => post(h.app, path, body, token);

  beforeAll(async () => {
    office = await operatorToken(h, 'office1', 'notary');
    finance = await operatorToken(h, 'finance1', 'finance');
  });

  it('step 2: only the gateway stores documents, only four PDFs, once; they download through a signed link', async () => {
    const u = await newUser();
    const other = await newUser();
    const order = await orderAtStep2(u);
    const data = await get<NotaryDocumentData>(
      h.app,
      NotaryPaths.documentData,
      { orderId: order.id },
      u.token,
    );
    expect(data.data).toMatchObject({
      orderNo: order.orderNo,
      signed: false,
      seal: null,
      money: order.money,
    });
    expect(data.data.evidences).toHaveLength(2);
    expect(data.data.form.copies).toBe(2);
    // no key, a wrong key: refused; another user's token: not found
    expect((await submitDocs(u.token, order.id, { key: null })).statusCode).toBe(403);
    expect((await submitDocs(u.token, order.id, { key: 'x'.repeat(43) })).statusCode).toBe(403);
    expect((await submitDocs(other.token, order.id)).json()).toMatchObject({ code: ApiCode.NOT_FOUND });
    // three files, or a non-PDF: refused, nothing stored
    const three = await submitDocs(u.token, order.id, { docs: [1, 2, 3].map(() => pdfBytes()) });
    expect(three.json()).toMatchObject({ code: ApiCode.BAD_REQUEST, msg: NotaryMsg.documentsInvalid });
    const notPdf = await submitDocs(u.token, order.id, {
      docs: [pdfBytes(), pdfBytes(), pdfBytes(), Buffer.from('hello')],
    });
    expect(notPdf.json()).toMatchObject({ msg: NotaryMsg.documentsInvalid });
    const stored = await h.app.pdb.db
      .selectFrom('notary_documents')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(stored).toHaveLength(0);
    // the deCode step is not reachable yet
    const early = await post(
      h.app,
      NotaryPaths.deCode,
      { orderId: order.id, code: await userCode(u.token) },
      u.token,
    );
    expect(early.msg).toBe(NotaryMsg.stepNotReached);

    const docs = [1, 2, 3, 4].map((i) => pdfBytes(`document ${i}`));
    const ok = await submitDocs(u.token, order.id, { docs });
    expect(ok.json()).toMatchObject({ code: 200, msg: NotaryMsg.documentsSigned });
    const again = await submitDocs(u.token, order.id, { docs });
    expect(again.json()).toMatchObject({ code: ApiCode.BAD_REQUEST, msg: NotaryMsg.documentsSigned });
    const link = await get<NotaryDownData>(
      h.app,
      NotaryPaths.downDoc,
      { orderId: order.id, type: 3 },
      u.token,
    );
    const file = await h.app.inject({ method: 'GET', url: link.data.downUrl });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(docs[2]!)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    // a forged link, another user's order, the certificate before issue
    const forged = await h.app.inject({
      method: 'GET',
      url: link.data.downUrl.replace(/sig=.{4}/, 'sig=AAAA'),
    });
    expect(forged.statusCode).toBe(403);
    expect((await get(h.app, NotaryPaths.downDoc, { orderId: order.id, type: 3 }, other.token)).code).toBe(
      ApiCode.NOT_FOUND,
    );
    expect((await get(h.app, NotaryPaths.downDoc, { orderId: order.id, type: 5 }, u.token)).msg).toBe(
      NotaryMsg.documentNotFound,
    );
  });

  it('step 3 takes the extraction code; step 4 pays once with points, even when two payments race', async () => {
    const u = await newUser();
    const order = await orderAtStep2(u);
    await submitDocs(u.token, order.id);
    const pay = () => post(h.app, NotaryPaths.pay, { orderId: order.id, payType: 1 }, u.token);
    expect((await pay()).msg).toBe(NotaryMsg.stepNotReached);
    const wrong = await post(h.app, NotaryPaths.deCode, { orderId: order.id, code: 'WRONG123' }, u.token);
    expect([wrong.code, wrong.msg]).toEqual([ApiCode.BAD_REQUEST, NotaryMsg.codeWrong]);
    const right = await post(
      h.app,
      NotaryPaths.deCode,
      { orderId: order.id, code: await userCode(u.token) },
      u.token,
    );
    expect([right.code, right.msg]).toEqual([200, NotaryMsg.authorized]);
    // not enough points: refused, nothing written
    const poor = await pay();
    expect(poor.code).toBe(ApiCode.BAD_REQUEST);
    expect(await balance(u.mobile)).toBe(0);
    await credit(u.mobile, order.money + 50);
    const [first, second] = await Promise.all([pay(), pay()]);
    expect([first.msg, second.msg].sort()).toEqual([NotaryMsg.alreadyPaid, NotaryMsg.paid].sort());
    expect(await balance(u.mobile)).toBe(50);
    const userId = await userIdOf(u.mobile);
    expect(await journalSum(h.app.pdb.db, userId)).toBe(50);
    const spends = await h.app.pdb.db
      .selectFrom('billing_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'spend')
      .execute();
    expect(spends).toHaveLength(1);
    expect(Number(spends[0]!.points)).toBe(orderPrice(type, 2));
    const news = await get<NotaryPayNews>(h.app, NotaryPaths.paysmsnews, { orderId: order.id }, u.token);
    expect(news.data).toMatchObject({ pay: 2, balance: 50, step: NotaryStep.done });
    // Alipay: a recharge of the price bought for the order; once the provider's payment is applied (as any of the
    // billing area's confirmation paths applies it), the order is paid from it, once, with pay type 2
    const u2 = await newUser();
    const o2 = await orderAtStep2(u2);
    await submitDocs(u2.token, o2.id);
    await post(h.app, NotaryPaths.deCode, { orderId: o2.id, code: await userCode(u2.token) }, u2.token);
    const ali = await post<PayData>(h.app, NotaryPaths.pay, { orderId: o2.id, payType: 2 }, u2.token);
    expect(ali.code).toBe(200);
    expect(ali.data).toMatchObject({ type: 2, integral: o2.money });
    expect(ali.data.url).toContain('alipay.trade.page.pay');
    const provider = h.app.billing.provider(2);
    const trade = {
      state: 'paid' as const,
      tradeNo: `T${randomBytes(6).toString('hex')}`,
      amountFen: ali.data.amountFen,
      currency: 'CNY',
      appId: '',
      merchant: '',
    };
    const applied = await applyTrade(h.app.pdb, ali.data.order_no, provider, trade);
    const again = await applyTrade(h.app.pdb, ali.data.order_no, provider, trade);
    expect([applied.verdict, again.verdict]).toEqual(['applied', 'duplicate']);
    const paid2 = await get<NotaryPayNews>(h.app, NotaryPaths.paysmsnews, { orderId: o2.id }, u2.token);
    expect(paid2.data).toMatchObject({ pay: 2, step: NotaryStep.done, balance: 0 });
    const detail2 = await get<NotaryDetailData>(h.app, NotaryPaths.detail, { orderId: o2.id }, u2.token);
    expect(detail2.data.info.payType).toBe(2);
    const u2Id = await userIdOf(u2.mobile);
    const kinds = await h.app.pdb.db
      .selectFrom('billing_orders')
      .select(['kind', 'points'])
      .where('user_id', '=', u2Id)
      .orderBy('id')
      .execute();
    expect(kinds.map((k) => [k.kind, Number(k.points)])).toEqual([
      ['recharge', o2.money],
      ['spend', o2.money],
    ]);
    expect(await journalSum(h.app.pdb.db, u2Id)).toBe(0);
    // a second Alipay payment of a paid order is refused
    expect((await post(h.app, NotaryPaths.pay, { orderId: o2.id, payType: 2 }, u2.token)).msg).toBe(
      NotaryMsg.alreadyPaid,
    );
  });

  it('ending a paid order the office has not accepted refunds it once; an accepted one cannot be ended', async () => {
    const u = await newUser();
    const order = await paidOrder(u);
    const [a, b] = await Promise.all([
      post(h.app, NotaryPaths.stop, { orderId: order.id }, u.token),
      post(h.app, NotaryPaths.stop, { orderId: order.id }, u.token),
    ]);
    expect([a.msg, b.msg].sort()).toEqual([NotaryMsg.orderClosed, NotaryMsg.refunded].sort());
    expect(await balance(u.mobile)).toBe(order.money);
    // 消费记录 shows the consumption as given back (decision 019 "Refunded consumptions"), credited once.
    const spends = await get<OrderListData<PointsOrderRow>>(
      h.app,
      BillingPaths.getOrderList,
      { type: 2 },
      u.token,
    );
    expect(spends.data.list.map((o) => [o.balance, o.status, o.pay_status, o.refunded])).toEqual([
      [order.money, PayStatus.paid, REFUNDED_TEXT, true],
    ]);
    // the order's own detail says the same
    const detail = await get<OrderDetail>(
      h.app,
      BillingPaths.orderDetail,
      { order_no: spends.data.list[0]!.order_no },
      u.token,
    );
    expect([detail.data.pay_status, detail.data.refunded]).toEqual([REFUNDED_TEXT, true]);
    const second = await paidOrder(u);
    expect((await ops(office, NotaryOpsPaths.accept, { id: second.id })).msg).toBe(NotaryOpsMsg.accepted);
    const stop = await post(h.app, NotaryPaths.stop, { orderId: second.id }, u.token);
    expect(stop.msg).toBe(NotaryMsg.orderPaidStop);
    expect(await balance(u.mobile)).toBe(order.money);
    const after = await get<OrderListData<PointsOrderRow>>(
      h.app,
      BillingPaths.getOrderList,
      { type: 2 },
      u.token,
    );
    expect(after.data.list.map((o) => [o.pay_status, o.refunded])).toEqual([
      ['已支付', false],
      [REFUNDED_TEXT, true],
    ]);
  });

  it('the office reads a stored document by id only once its order is paid (the step-2 documents come before)', async () => {
    const u = await newUser();
    const order = await orderAtStep2(u);
    expect((await submitDocs(u.token, order.id)).statusCode).toBe(200);
    const docs = await h.app.pdb.db
      .selectFrom('notary_documents')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(docs).toHaveLength(4);
    const read = (id: number) =>
      h.app.inject({
        method: 'GET',
        url: `${NotaryOpsPaths.file}${id}`,
        headers: { authorization: `Bearer ${office}` },
      });
    for (const d of docs) {
      const res = await read(Number(d.id));
      expect([res.statusCode, res.json()]).toEqual([
        404,
        { code: ApiCode.NOT_FOUND, msg: NotaryMsg.documentNotFound, data: null },
      ]);
    }
    expect(
      (await post(h.app, NotaryPaths.deCode, { orderId: order.id, code: await userCode(u.token) }, u.token))
        .code,
    ).toBe(200);
    await credit(u.mobile, order.money);
    expect((await post(h.app, NotaryPaths.pay, { orderId: order.id, payType: 1 }, u.token)).code).toBe(200);
    const paid = await read(Number(docs[0]!.id));
    expect([paid.statusCode, paid.headers['content-type']]).toEqual([200, 'application/pdf']);
  });

  it('the office accepts, issues a certificate the public check confirms; roles and owners are enforced', async () => {
    const u = await newUser();
    const other = await newUser();
    const order = await paidOrder(u);
    // the queue and the detail; not for an operator without the notary role
    const queue = await get<NotaryQueueData>(h.app, NotaryOpsPaths.queue, { state: 1 }, office);
    expect(queue.data.list.some((r) => r.id === order.id)).toBe(true);
    const denied = await get(h.app, NotaryOpsPaths.queue, {}, finance);
    expect([denied.code, denied.msg]).toEqual([ApiCode.FORBIDDEN, OpsMsg.forbidden]);
    expect((await ops(finance, NotaryOpsPaths.accept, { id: order.id })).code).toBe(ApiCode.FORBIDDEN);
    const detail = await get<NotaryOpsDetail>(h.app, NotaryOpsPaths.detail, { id: order.id }, office);
    expect(detail.data.documents.map((d) => d.type)).toEqual([1, 2, 3, 4]);
    expect(detail.data.readable).toBe(true);
    const ev = detail.data.evidences[0]!;
    const read = await h.app.inject({
      method: 'GET',
      url: `${NotaryOpsPaths.evidence}${order.id}/${ev.id}`,
      headers: { authorization: `Bearer ${office}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload).toHaveLength(48);
    const audit = await h.app.pdb.db
      .selectFrom('ops_audit')
      .selectAll()
      .where('area', '=', 'notary')
      .where('action', '=', 'evidence')
      .execute();
    expect(audit.some((r) => r.remark === ev.baoquan)).toBe(true);
    expect((await post(h.app, NotaryPaths.requestPaper, { orderId: order.id }, u.token)).msg).toBe(
      NotaryMsg.paperNotIssued,
    );
    // issue before accept: refused
    const cert = pdfBytes('notarial certificate');
    const issue = (id: number, file: Buffer) =>
      call(h.app, {
        method: 'POST',
        url: NotaryOpsPaths.issue,
        token: office,
        ...multipart({ id: String(id) }, { data: file, filename: 'c.pdf', field: 'certificate' }),
      });
    expect(await issue(order.id, cert)).toMatchObject({ msg: NotaryOpsMsg.wrongState });
    expect((await ops(office, NotaryOpsPaths.accept, { id: order.id })).code).toBe(200);
    expect(await issue(order.id, Buffer.from('not a pdf'))).toMatchObject({
      msg: NotaryOpsMsg.certificateRequired,
    });
    expect(await issue(order.id, cert)).toMatchObject({ code: 200, msg: NotaryOpsMsg.issued });
    // the user's order and download
    const after = await get<NotaryOpsDetail>(h.app, NotaryOpsPaths.detail, { id: order.id }, office);
    const number = after.data.order.certificateNo!;
    expect(number).toMatch(/^\(\d{4}\)存证云公字第\d{6}号$/);
    const link = await get<NotaryDownData>(
      h.app,
      NotaryPaths.downDoc,
      { orderId: order.id, type: 5 },
      u.token,
    );
    expect((await h.app.inject({ method: 'GET', url: link.data.downUrl })).rawPayload.equals(cert)).toBe(
      true,
    );
    expect((await get(h.app, NotaryPaths.downDoc, { orderId: order.id, type: 5 }, other.token)).code).toBe(
      ApiCode.NOT_FOUND,
    );
    // the public check: the number, the right file, a wrong file, an unknown number
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(cert).digest('hex');
    const check = await get<NotarialCheckData>(h.app, NotaryPaths.notarialCheck, { number, hash: sha });
    expect(check.data).toMatchObject({
      number,
      hashMatches: true,
      sha256: sha,
      typeName: NOTARY_TYPES[0]!.name,
    });
    expect(check.data.baoquan).toHaveLength(2);
    const wrongFile = await get<NotarialCheckData>(h.app, NotaryPaths.notarialCheck, {
      number,
      hash: 'a'.repeat(64),
    });
    expect(wrongFile.data.hashMatches).toBe(false);
    // without the file (the numbers follow each other), nothing that opens more: no preservation number, no hash
    for (const q of [{ number }, { number, hash: 'a'.repeat(64) }]) {
      const bare = await get<NotarialCheckData>(h.app, NotaryPaths.notarialCheck, q);
      expect([bare.code, bare.data.number, bare.data.baoquan, bare.data.sha256]).toEqual([
        200,
        number,
        null,
        null,
      ]);
      for (const no of check.data.baoquan!) expect(JSON.stringify(bare.data)).not.toContain(no);
    }
    expect((await get(h.app, NotaryPaths.notarialCheck, { number: '(2026)存证云公字第999999号' })).msg).toBe(
      NotaryMsg.certificateNotFound,
    );
    // the paper copies: asked for once, then mailed by the office with a waybill number the user sees
    const ship = (courierNumber: string) => ops(office, NotaryOpsPaths.ship, { id: order.id, courierNumber });
    expect((await ship('SF1234567890')).msg).toBe(NotaryOpsMsg.wrongState);
    const asked = await post(h.app, NotaryPaths.requestPaper, { orderId: order.id }, u.token);
    expect(asked.msg).toBe(NotaryMsg.paperRequested);
    expect((await post(h.app, NotaryPaths.requestPaper, { orderId: order.id }, u.token)).msg).toBe(
      NotaryMsg.paperAlready,
    );
    expect((await post(h.app, NotaryPaths.requestPaper, { orderId: order.id }, other.token)).code).toBe(
      ApiCode.NOT_FOUND,
    );
    expect((await ship('顺丰')).msg).toBe(NotaryOpsMsg.courierInvalid);
    expect((await ship('SF1234567890')).msg).toBe(NotaryOpsMsg.shipped);
    const shipped = await get<NotaryDetailData>(h.app, NotaryPaths.detail, { orderId: order.id }, u.token);
    expect(shipped.data.info.paper).toMatchObject({ copies: 2, courierNumber: 'SF1234567890' });
    expect(shipped.data.info.paper!.requestedAt).not.toBeNull();
    const notes = await h.app.pdb.db
      .selectFrom('notifications')
      .select('content')
      .where('user_id', '=', await userIdOf(u.mobile))
      .execute();
    expect(notes.some((n) => n.content.includes(number))).toBe(true);
    expect(notes.some((n) => n.content.includes('SF1234567890'))).toBe(true);
  });

  it('the office sends an order back to a step (the payment stays) and terminates one with a refund', async () => {
    const u = await newUser();
    const order = await paidOrder(u);
    const back = await ops(office, NotaryOpsPaths.returnStep, {
      id: order.id,
      step: 2,
      remark: '请重新签署',
    });
    expect(back.msg).toBe(NotaryOpsMsg.returned);
    const docs = await h.app.pdb.db
      .selectFrom('notary_documents')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(docs).toHaveLength(0);
    expect((await ops(office, NotaryOpsPaths.accept, { id: order.id })).msg).toBe(NotaryOpsMsg.notComplete);
    // the authorisation went with the step: the office cannot read the evidences until the user gives it again
    const detail = await get<NotaryOpsDetail>(h.app, NotaryOpsPaths.detail, { id: order.id }, office);
    expect(detail.data.readable).toBe(false);
    const read = await h.app.inject({
      method: 'GET',
      url: `${NotaryOpsPaths.evidence}${order.id}/${detail.data.evidences[0]!.id}`,
      headers: { authorization: `Bearer ${office}` },
    });
    expect(read.statusCode).toBe(403);
    expect((await submitDocs(u.token, order.id)).statusCode).toBe(200);
    expect(
      (await post(h.app, NotaryPaths.deCode, { orderId: order.id, code: await userCode(u.token) }, u.token))
        .code,
    ).toBe(200);
    // paid already: the order is complete again without a second payment
    const news = await get<NotaryPayNews>(h.app, NotaryPaths.paysmsnews, { orderId: order.id }, u.token);
    expect(news.data).toMatchObject({ step: NotaryStep.done, pay: 2 });
    const before = await balance(u.mobile);
    const end = await ops(office, NotaryOpsPaths.terminate, { id: order.id, remark: '材料不符' });
    expect(end.msg).toBe(NotaryOpsMsg.terminated);
    expect(await balance(u.mobile)).toBe(before + order.money);
    expect((await ops(office, NotaryOpsPaths.terminate, { id: order.id, remark: '再次' })).msg).toBe(
      NotaryOpsMsg.wrongState,
    );
    expect(await balance(u.mobile)).toBe(before + order.money);
  });
});
