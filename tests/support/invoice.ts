/**
 * Test support for the invoice suites (platform/invoice/*.test.ts): recharge orders written straight into the
 * billing table as the payment flow would leave them (paid, provider, invoiceStatus 0; the payment flow itself is
 * the billing suites' subject), heads and addresses, finance operators made with the `ops` CLI, real PDF and OFD
 * bytes, and the multipart body of the issue call with several file parts. Not production code.
 */
import { randomBytes } from 'node:crypto';
import { ZipArchive } from 'archiver';
import type { FastifyInstance } from 'fastify';
import { AddressPaths, type Address } from '../../contract/address.ts';
import { PayStatus, PayType } from '../../contract/billing-codes.ts';
import { InvoiceOpsPaths, InvoicePaths, type InvoiceHead } from '../../contract/invoice.ts';
import { OpsPaths, type OpsLoginData } from '../../contract/ops.ts';
import { newOrderNo } from '../../platform/billing/money.ts';
import { runOpsCommand } from '../../platform/ops/cli-commands.ts';
import { ADDRESS } from './account.ts';
import { call, post, type PlatformHarness } from './platform.ts';

export { ADDRESS } from './account.ts';
export { userIdOf as userId } from './billing.ts';

/** An electronic (ENTERPRISE) head body with a valid unified social credit code. */
export const E_HEAD = { head: '杭州存证科技有限公司', type: 'ENTERPRISE', taxNum: '91330100MA27XL0E2G' };
/** A paper special (ENTERPRISE_SPECIAL) head body with every bank field. */
export const SPECIAL_HEAD = {
  head: '上海公证服务有限公司',
  type: 'ENTERPRISE_SPECIAL',
  taxNum: '310101123456789',
  bankName: '中国工商银行上海分行',
  account: '6222021001234567890',
  street: '上海市黄浦区中山东一路 1 号',
  phoneNumber: '021-12345678',
};

/** Unix seconds of 00:00 on 1 January of the current Beijing year. */
export function beijingYearStart(nowMs = Date.now()): number {
  const year = new Date(nowMs + 8 * 3600_000).getUTCFullYear();
  return Date.UTC(year, 0, 1) / 1000 - 8 * 3600;
}

/** Options of {@link paidOrder}. */
export interface OrderOptions {
  /** Fen (default 5000). */
  amountFen?: number;
  /** Unix seconds (default now). */
  createdAt?: number;
  /** 'spend' writes a balance-paid consumption (pay_type 1). */
  kind?: 'recharge' | 'spend';
}

/** Writes a paid recharge (Alipay) of `userId`, or a consumption. @returns the order's id and number */
export async function paidOrder(
  app: FastifyInstance,
  uid: number,
  opts: OrderOptions = {},
): Promise<{ id: number; orderNo: string }> {
  const now = opts.createdAt ?? Math.floor(Date.now() / 1000);
  const amountFen = opts.amountFen ?? 5000;
  const spend = opts.kind === 'spend';
  const row = await app.pdb.db
    .insertInto('billing_orders')
    .values({
      order_no: newOrderNo(spend ? 'C' : 'R', now),
      user_id: uid,
      kind: spend ? 'spend' : 'recharge',
      points: amountFen / 100,
      amount_fen: spend ? 0 : amountFen,
      pay_type: spend ? PayType.balance : PayType.alipay,
      status: PayStatus.paid,
      description: spend ? '积分消费' : `充值${amountFen / 100}积分`,
      expires_at: now + 1800,
      paid_at: now + 60,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'order_no'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), orderNo: row.order_no };
}

/** Adds a head through the API. @throws when refused */
export async function addHead(app: FastifyInstance, token: string, body: Record<string, string> = E_HEAD) {
  const r = await post<InvoiceHead>(app, InvoicePaths.addInvoice, body, token, true);
  if (r.code !== 200) throw new Error(`addInvoice refused: ${r.msg}`);
  return r.data;
}

/** Adds an address through the API. @throws when refused */
export async function addAddress(app: FastifyInstance, token: string) {
  const r = await post<Address>(app, AddressPaths.addAddress, ADDRESS, token, true);
  if (r.code !== 200) throw new Error(`addAddress refused: ${r.msg}`);
  return r.data;
}

/** Creates an operator with `roles` through the `ops` CLI and logs in. @returns the operator token */
export async function operatorToken(h: PlatformHarness, username: string, roles: string): Promise<string> {
  const password = `${username}-password-1`;
  const r = await runOpsCommand(h.app.pdb.db, h.config.scryptCost, [
    'create',
    username,
    password,
    '--roles',
    roles,
  ]);
  if (r.code !== 0) throw new Error(`ops create failed: ${r.err}`);
  const login = await post<OpsLoginData>(h.app, OpsPaths.login, { username, password });
  if (login.code !== 200) throw new Error(`ops login failed: ${login.msg}`);
  return login.data.token;
}

/** A small but well-formed PDF (the tax system's are bigger, but start the same). */
export function pdfBytes(text = 'invoice'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n` +
      `% ${text} ${randomBytes(8).toString('hex')}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

/** A ZIP with the given entries, made with archiver. */
export async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  for (const [name, text] of Object.entries(entries)) zip.append(text, { name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** An OFD package (GB/T 33190): a ZIP whose root holds OFD.xml. */
export function ofdBytes(): Promise<Buffer> {
  return zipOf({
    'OFD.xml':
      '<?xml version="1.0" encoding="UTF-8"?><ofd:OFD xmlns:ofd="http://www.ofdspec.org/2016" Version="1.0"/>',
    'Doc_0/Document.xml': '<ofd:Document xmlns:ofd="http://www.ofdspec.org/2016"/>',
  });
}

/** One file part of {@link issueWithFiles}. */
export interface FilePart {
  field: string;
  filename: string;
  data: Buffer;
}

/** Posts the issue call as multipart: `fields` and any number of file parts, in order. */
export function issueWithFiles(
  app: FastifyInstance,
  token: string,
  fields: Record<string, string>,
  files: FilePart[],
) {
  const boundary = `----czinv${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return call(app, {
    method: 'POST',
    url: InvoiceOpsPaths.issue,
    token,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  });
}
