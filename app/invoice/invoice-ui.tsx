/**
 * Pieces the invoice pages share (spec 02 §3 "Invoice detail", "Invoice order row"): a list of facts (label →
 * value), the related orders table, and the application's invoice and delivery facts. Server-rendered, no
 * JavaScript needed; values only from the zod-free contract modules, so the pages' JavaScript stays small.
 */
import type { ReactNode } from 'react';
import { formatFen, PAY_TYPE_TEXT } from '../../contract/billing-codes.ts';
import { INVOICE_TYPE_TEXT, SHIPPING_TEXT } from '../../contract/invoice-codes.ts';
import type { InvoiceDetail, InvoiceOrderRow } from '../../contract/invoice.ts';
import { DataTable } from '../shell/data-table.tsx';

export { Facts } from '../shell/facts.tsx';

/** The recharges of an application (spec 02 §3 "Invoice order row"), amounts in yuan. */
export function OrdersTable({
  rows,
  testId = 'invoice-order-row',
}: {
  rows: InvoiceOrderRow[];
  testId?: string;
}) {
  return (
    <DataTable
      headers={['订单号', '下单时间', '订单描述', '金额（元）', '支付方式']}
      items={rows}
      empty="暂无订单"
      row={(o) => (
        <tr key={o.id} data-testid={testId}>
          <td className="mono">{o.order_no}</td>
          <td>{o.create_time}</td>
          <td>{o.order_desc}</td>
          <td>{formatFen(o.money)}</td>
          <td>{PAY_TYPE_TEXT[o.pay_type] ?? ''}</td>
        </tr>
      )}
    />
  );
}

/** The invoice facts of an application: type, head, tax number, the special invoice's bank fields, content, money. */
export function invoiceFacts(d: InvoiceDetail): [string, ReactNode][] {
  return [
    ['发票类型', INVOICE_TYPE_TEXT[d.type]],
    ['发票抬头', d.head],
    ['纳税人识别号', <span className="mono">{d.tax_num}</span>],
    ['开户银行', d.bank_name],
    ['银行账号', d.account ? <span className="mono">{d.account}</span> : ''],
    ['注册地址', d.street],
    ['注册电话', d.phone_number],
    ['发票内容', d.content],
    ['开票金额', `¥${formatFen(d.money)}`],
    ['寄送方式', SHIPPING_TEXT[d.shipping]],
  ];
}

/** The delivery address snapshot of an application (as it was when asked). */
export function addressFacts(d: InvoiceDetail): [string, ReactNode][] {
  return [
    ['收件人', d.name],
    ['手机号', d.post_phone_number],
    ['收件地址', d.address],
    ['邮箱', d.email],
  ];
}
