/**
 * The invoice area's tables as Kysely sees them (migration 0008_invoice): heads, applications with their head and
 * address snapshots, the orders of each application and the issued files. They join the platform's `Database` by
 * interface merging, so the area adds no line to platform/db/schema.ts. Money is integer fen, times unix seconds,
 * sizes bytes.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { InvoiceType } from '../../contract/invoice-codes.ts';

/** A column with a database default or NULL: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** An invoice head (spec 02 §3 "Invoice head"); at most 5 per user. '' for the fields an ENTERPRISE head left out. */
export interface InvoiceHeadsTable {
  id: Generated<number>;
  user_id: number;
  head: string;
  type: InvoiceType;
  /** Upper case. */
  tax_num: string;
  bank_name: Defaulted<string>;
  account: Defaulted<string>;
  street: Defaulted<string>;
  phone_number: Defaulted<string>;
  created_at: number;
  updated_at: number;
}

/** An invoice application (spec 02 §3 "Invoice application", "Invoice detail"; §4 status 1–4). */
export interface InvoiceApplicationsTable {
  id: Generated<number>;
  /** 'F' + Beijing date + 80 random bits in hex (29 characters), unique. */
  apply_no: string;
  user_id: number;
  /** 1 待开票, 2 提交财务, 3 已开票, 4 审核不通过 (contract ApplyStatus). */
  status: number;
  /** The total of the orders, fen. */
  money_fen: number;
  // the head as it was when asked
  type: InvoiceType;
  head: string;
  tax_num: string;
  bank_name: Defaulted<string>;
  account: Defaulted<string>;
  street: Defaulted<string>;
  phone_number: Defaulted<string>;
  // the delivery address as it was when asked
  recipient: Defaulted<string>;
  post_phone_number: Defaulted<string>;
  province: Defaulted<string>;
  city: Defaulted<string>;
  area: Defaulted<string>;
  address: Defaulted<string>;
  email: Defaulted<string>;
  /** The user's remark, at most 150 characters. */
  remark: Defaulted<string>;
  /** The finance operator's reason of a rejection. */
  check_remark: Defaulted<string>;
  /** The courier number of a paper invoice once issued. */
  courier_number: Defaulted<string>;
  created_at: number;
  updated_at: number;
  /** Unix seconds when issued or rejected, null before. */
  decided_at: Defaulted<number | null>;
}

/** One recharge order of an application. */
export interface InvoiceApplicationOrdersTable {
  application_id: number;
  order_id: number;
}

/** An issued invoice file in the `invoices` bucket. */
export interface InvoiceFilesTable {
  id: Generated<number>;
  application_id: number;
  storage_key: string;
  format: 'pdf' | 'ofd';
  /** Bytes. */
  file_size: number;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    invoice_heads: InvoiceHeadsTable;
    invoice_applications: InvoiceApplicationsTable;
    invoice_application_orders: InvoiceApplicationOrdersTable;
    invoice_files: InvoiceFilesTable;
  }
}

export type InvoiceHeadRow = Selectable<InvoiceHeadsTable>;
export type InvoiceApplicationRow = Selectable<InvoiceApplicationsTable>;
export type InvoiceFileRow = Selectable<InvoiceFilesTable>;
