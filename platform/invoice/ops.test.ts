/**
 * The finance queue of invoices through `fastify.inject` on SQLite and PostgreSQL (spec 02 §2 "Invoices", §4
 * "Invoice application status"; docs/decisions/022-invoices.md, 015-operator-console-roles.md): only `finance` opens
 * it; submit, issue with PDF/OFD files checked by their bytes (a refused file leaves no row and no stored file) or a
 * courier number, reject with a reason that returns the orders to invoiceStatus 3; the owner downloads the issued
 * bytes through a signed URL, nobody else; the user is notified and every decision is audited.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { BillingPaths, type OrderListData, type PointsOrderRow } from '../../contract/billing.ts';
import {
  InvoiceMsg,
  InvoiceOpsPaths,
  InvoicePaths,
  type InvoiceDetailData,
  type InvoiceOpsDetail,
  type InvoiceQueueData,
} from '../../contract/invoice.ts';
import { type NotificationListData, NotificationPaths } from '../../contract/notification.ts';
import { OpsMsg, OpsPaths, type OpsHomeData } from '../../contract/ops.ts';
import { userFactory } from '../../tests/support/account.ts';
import {
  SPECIAL_HEAD,
  addAddress,
  addHead,
  issueWithFiles,
  ofdBytes,
  operatorToken,
  paidOrder,
  pdfBytes,
  userId,
  zipOf,
} from '../../tests/support/invoice.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';

forEachDialect('invoice finance queue', (h) => {
  const newUser = userFactory(h);
  let finance = '';
  let reviewer = '';
  beforeAll(async () => {
    finance = await operatorToken(h, 'fin-a', 'finance');
    reviewer = await operatorToken(h, 'rev-a', 'reviewer');
  });

  /** A user with a head of `head` type, an address and an application of two orders. */
  async function application(head?: Record<string, string>) {
    const u = await newUser();
    const uid = await userId(h.app, u.mobile);
    const hd = await addHead(h.app, u.token, head);
    const addr = await addAddress(h.app, u.token);
    const orders = [
      await paidOrder(h.app, uid, { amountFen: 3000 }),
      await paidOrder(h.app, uid, { amountFen: 2000 }),
    ];
    const r = await post<{ id: number }>(
      h.app,
      InvoicePaths.invoiceAsk,
      {
        ids: orders.map((o) => o.id).join(','),
        userInvoiceId: String(hd.id),
        userAddressId: String(addr.id),
      },
      u.token,
      true,
    );
    expect(r.code, r.msg).toBe(200);
    return { ...u, uid, id: r.data.id, orders, head: hd, address: addr };
  }
  const statuses = async (token: string) => {
    const r = await get<OrderListData<PointsOrderRow>>(h.app, BillingPaths.getOrderList, { type: 1 }, token);
    return r.data.list.map((o) => o.invoiceStatus);
  };
  const detail = async (token: string, id: number) =>
    (await post<InvoiceDetailData>(h.app, InvoicePaths.invoiceDetail, { id: String(id) }, token, true)).data
      .detail;
  const news = async (token: string) =>
    (await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, token)).data.list.map(
      (n) => n.str,
    );
  const storedFiles = async () => {
    const dir = path.join(h.dataDir, 'invoices');
    const subdirs = await fsp.readdir(dir).catch(() => [] as string[]);
    const all = await Promise.all(subdirs.map((d) => fsp.readdir(path.join(dir, d))));
    return all.flat().length;
  };
  const auditOf = async (subject: string) =>
    (
      await h.app.pdb.db
        .selectFrom('ops_audit')
        .select(['action', 'remark'])
        .where('area', '=', 'invoice')
        .where('subject', '=', subject)
        .orderBy('id')
        .execute()
    ).map((r) => r.action);

  it('opens the queue and its calls to finance only (403 无权访问 otherwise), on the console home', async () => {
    const a = await application();
    for (const r of [
      await get(h.app, InvoiceOpsPaths.queue, {}, reviewer),
      await get(h.app, InvoiceOpsPaths.detail, { id: a.id }, reviewer),
      await post(h.app, InvoiceOpsPaths.submit, { id: a.id }, reviewer),
      await post(h.app, InvoiceOpsPaths.reject, { id: a.id, remark: '不行' }, reviewer),
      await post(h.app, InvoiceOpsPaths.issue, { id: a.id }, reviewer),
    ]) {
      expect([r.status, r.code, r.msg]).toEqual([403, 403, OpsMsg.forbidden]);
    }
    expect((await get(h.app, InvoiceOpsPaths.queue, {}, a.token)).code).toBe(408);
    const home = await get<OpsHomeData>(h.app, OpsPaths.home, {}, finance);
    const q = home.data.queues.find((x) => x.area === 'invoice');
    expect(q?.items.some((i) => i.ref === String(a.id) && i.subject === a.mobile)).toBe(true);
    const reviewerHome = await get<OpsHomeData>(h.app, OpsPaths.home, {}, reviewer);
    expect(reviewerHome.data.queues.some((x) => x.area === 'invoice')).toBe(false);

    const queue = await get<InvoiceQueueData>(h.app, InvoiceOpsPaths.queue, {}, finance);
    expect(queue.data.list.find((r) => r.id === a.id)).toMatchObject({
      mobile: a.mobile,
      money: 5000,
      orderCount: 2,
      status: 1,
    });
    const d = await get<InvoiceOpsDetail>(h.app, InvoiceOpsPaths.detail, { id: a.id }, finance);
    expect(d.data).toMatchObject({ userId: a.uid, mobile: a.mobile, detail: { id: a.id, status: 1 } });
    expect((await get(h.app, InvoiceOpsPaths.detail, { id: 999999 }, finance)).code).toBe(404);
  });

  it('issues an electronic invoice with a PDF: refused files leave nothing; the owner alone downloads the bytes', async () => {
    const a = await application();
    const submitted = await post(h.app, InvoiceOpsPaths.submit, { id: a.id }, finance);
    expect([submitted.code, submitted.msg]).toEqual([200, InvoiceMsg.submittedToFinance]);
    expect((await detail(a.token, a.id)).status).toBe(2);
    expect((await post(h.app, InvoiceOpsPaths.submit, { id: a.id }, finance)).msg).toBe(
      InvoiceMsg.wrongState,
    );

    const before = await storedFiles();
    const fields = { id: String(a.id) };
    const notPdf = await issueWithFiles(h.app, finance, fields, [
      { field: 'file1', filename: 'a.pdf', data: pdfBytes() },
      { field: 'file2', filename: 'fake.pdf', data: Buffer.from('this is not a PDF at all') },
    ]);
    expect([notPdf.code, notPdf.msg]).toEqual([400, InvoiceMsg.fileType]);
    const zipNoOfd = await issueWithFiles(h.app, finance, fields, [
      { field: 'file', filename: 'x.ofd', data: await zipOf({ 'readme.txt': 'not an OFD' }) },
    ]);
    expect(zipNoOfd.msg).toBe(InvoiceMsg.fileType);
    const none = await issueWithFiles(h.app, finance, fields, [
      { field: 'file', filename: '', data: Buffer.alloc(0) },
    ]);
    expect(none.msg).toBe(InvoiceMsg.filesRequired);
    const repeated = await issueWithFiles(h.app, finance, fields, [
      { field: 'file', filename: 'a.pdf', data: pdfBytes() },
      { field: 'file', filename: 'b.pdf', data: pdfBytes() },
    ]);
    expect(repeated.msg).toBe(InvoiceMsg.fileFieldRepeated);
    const courier = await post(
      h.app,
      InvoiceOpsPaths.issue,
      { id: a.id, courierNumber: 'SF1234567890' },
      finance,
    );
    expect(courier.msg).toBe(InvoiceMsg.filesRequired);
    const six = await issueWithFiles(
      h.app,
      finance,
      fields,
      ['file', 'file1', 'file2', 'file3', 'file4', 'file5'].map((field) => ({
        field,
        filename: `${field}.pdf`,
        data: pdfBytes(),
      })),
    );
    expect(six.msg).toBe(InvoiceMsg.tooManyFiles);
    expect(await storedFiles()).toBe(before);
    expect(await fsp.readdir(path.join(h.dataDir, 'tmp'))).toEqual([]);
    expect(
      await h.app.pdb.db.selectFrom('invoice_files').selectAll().where('application_id', '=', a.id).execute(),
    ).toEqual([]);
    expect((await detail(a.token, a.id)).status).toBe(2);

    const pdf = pdfBytes('the real one');
    const ofd = await ofdBytes();
    const issued = await issueWithFiles(h.app, finance, fields, [
      { field: 'file1', filename: 'inv.pdf', data: pdf },
      { field: 'file2', filename: 'inv.ofd', data: ofd },
    ]);
    expect([issued.code, issued.msg]).toEqual([200, InvoiceMsg.issued]);
    expect(await storedFiles()).toBe(before + 2);
    const d = await detail(a.token, a.id);
    expect(d.status).toBe(3);
    expect(d.decided_time).not.toBe('');
    expect(d.files.map((f) => [f.name, f.format, f.size])).toEqual([
      ['发票1.pdf', 'pdf', pdf.length],
      ['发票2.ofd', 'ofd', ofd.length],
    ]);
    expect(await statuses(a.token)).toEqual([2, 2]);
    expect(await news(a.token)).toContain(InvoiceMsg.issuedNews(d.order_no));
    const again = await issueWithFiles(h.app, finance, fields, [
      { field: 'file', filename: 'c.pdf', data: pdfBytes() },
    ]);
    expect(again.msg).toBe(InvoiceMsg.wrongState);
    expect(await storedFiles()).toBe(before + 2);

    // the owner's signed URL streams the same bytes; another user gets 404; a forged signature 403
    const url = await post<{ downUrl: string }>(
      h.app,
      InvoicePaths.invoiceFile,
      { id: String(a.id), fileId: String(d.files[0]!.id) },
      a.token,
      true,
    );
    expect(url.code).toBe(200);
    const res = await h.app.inject({ method: 'GET', url: url.data.downUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.equals(pdf)).toBe(true);
    const forged = await h.app.inject({
      method: 'GET',
      url: url.data.downUrl.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`),
    });
    expect(forged.statusCode).toBe(403);
    const other = await newUser();
    const foreign = await post(
      h.app,
      InvoicePaths.invoiceFile,
      { id: String(a.id), fileId: String(d.files[0]!.id) },
      other.token,
      true,
    );
    expect([foreign.code, foreign.msg]).toEqual([404, InvoiceMsg.applicationNotFound]);
    const b = await application();
    const wrongApp = await post(
      h.app,
      InvoicePaths.invoiceFile,
      { id: String(b.id), fileId: String(d.files[0]!.id) },
      b.token,
      true,
    );
    expect([wrongApp.code, wrongApp.msg]).toEqual([404, InvoiceMsg.fileNotFound]);

    // the operator streams it too
    const opFile = await h.app.inject({
      method: 'GET',
      url: `${InvoiceOpsPaths.file}${d.files[1]!.id}`,
      headers: { authorization: `Bearer ${finance}` },
    });
    expect(opFile.statusCode).toBe(200);
    expect(opFile.rawPayload.equals(ofd)).toBe(true);
    const noRole = await h.app.inject({
      method: 'GET',
      url: `${InvoiceOpsPaths.file}${d.files[1]!.id}`,
      headers: { authorization: `Bearer ${reviewer}` },
    });
    expect(noRole.statusCode).toBe(403);
    expect(await auditOf(d.order_no)).toEqual(['submit', 'issue']);
  });

  it('issues a paper special invoice with its courier number', async () => {
    const a = await application(SPECIAL_HEAD);
    const files = await issueWithFiles(h.app, finance, { id: String(a.id) }, [
      { field: 'file', filename: 'a.pdf', data: pdfBytes() },
    ]);
    expect(files.msg).toBe(InvoiceMsg.wrongState);
    expect((await post(h.app, InvoiceOpsPaths.issue, { id: a.id }, finance)).msg).toBe(
      InvoiceMsg.courierRequired,
    );
    expect((await post(h.app, InvoiceOpsPaths.issue, { id: a.id, courierNumber: 'x' }, finance)).msg).toBe(
      InvoiceMsg.courierInvalid,
    );
    const ok = await post(h.app, InvoiceOpsPaths.issue, { id: a.id, courierNumber: 'SF1234567890' }, finance);
    expect([ok.code, ok.msg]).toEqual([200, InvoiceMsg.issued]);
    const d = await detail(a.token, a.id);
    expect(d).toMatchObject({ status: 3, courier_number: 'SF1234567890', files: [] });
    expect(await statuses(a.token)).toEqual([2, 2]);
  });

  it('rejects with a reason: checkFail gives it, the orders return to 3 and can be asked again', async () => {
    const a = await application();
    expect((await post(h.app, InvoiceOpsPaths.reject, { id: a.id, remark: ' ' }, finance)).msg).toBe(
      InvoiceMsg.checkRemarkRequired,
    );
    const r = await post(h.app, InvoiceOpsPaths.reject, { id: a.id, remark: '税号与抬头不符' }, finance);
    expect([r.code, r.msg]).toEqual([200, InvoiceMsg.rejected]);
    const d = await detail(a.token, a.id);
    expect(d).toMatchObject({ status: 4, check_remark: '税号与抬头不符' });
    const reason = await post<{ checkRemark: string }>(
      h.app,
      InvoicePaths.checkFail,
      { id: String(a.id) },
      a.token,
      true,
    );
    expect(reason.data).toEqual({ checkRemark: '税号与抬头不符' });
    expect(await statuses(a.token)).toEqual([3, 3]);
    // /orders links each failed order to this application, whose page shows the reason (spec 02 §4 "Orders").
    const failedRows = await get<OrderListData<PointsOrderRow>>(
      h.app,
      BillingPaths.getOrderList,
      { type: 1 },
      a.token,
    );
    expect(failedRows.data.list.map((o) => o.failedApplicationId)).toEqual([a.id, a.id]);
    expect(await news(a.token)).toContain(InvoiceMsg.rejectedNews(d.order_no, '税号与抬头不符'));
    expect((await post(h.app, InvoiceOpsPaths.reject, { id: a.id, remark: '再拒' }, finance)).msg).toBe(
      InvoiceMsg.wrongState,
    );

    const again = await post<{ id: number }>(
      h.app,
      InvoicePaths.invoiceAsk,
      {
        ids: a.orders.map((o) => o.id).join(','),
        userInvoiceId: String(a.head.id),
        userAddressId: String(a.address.id),
      },
      a.token,
      true,
    );
    expect(again.code, again.msg).toBe(200);
    expect(await statuses(a.token)).toEqual([1, 1]);
    const askedAgain = await get<OrderListData<PointsOrderRow>>(
      h.app,
      BillingPaths.getOrderList,
      { type: 1 },
      a.token,
    );
    expect(askedAgain.data.list.map((o) => o.failedApplicationId)).toEqual([null, null]);
    const rejected = await get<InvoiceQueueData>(h.app, InvoiceOpsPaths.queue, { status: '4' }, finance);
    expect(rejected.data.list.some((x) => x.id === a.id)).toBe(true);
    expect(await auditOf(d.order_no)).toEqual(['reject']);
    const rows = await h.app.pdb.db
      .selectFrom('ops_audit')
      .select('remark')
      .where('area', '=', 'invoice')
      .where('action', '=', 'reject')
      .where('subject', '=', d.order_no)
      .execute();
    expect(rows.map((x) => x.remark)).toEqual(['税号与抬头不符']);
  });
});
