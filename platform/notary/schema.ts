/**
 * The notarisation area's tables as Kysely sees them (migration 0012_notary): orders and the evidences each covers.
 * They join the platform's `Database` by interface merging. Points are integers, times unix seconds.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';

/** A notarisation order (spec 02 §3, §4). */
export interface NotaryOrdersTable {
  id: Generated<number>;
  /** 'N' + Beijing date + 80 random bits in hex, unique (the spec's `orderNo`). */
  order_no: string;
  user_id: number;
  /** A type of contract NOTARY_TYPES. */
  type: number;
  /** Evidences covered (the spec's `number`). */
  records: number;
  /** Its price, points (the spec's `money`). */
  points: number;
  /** The first step not yet done (contract NotaryStep 1–5). */
  step: number;
  /** Pay state (contract NotaryPay 1–3). */
  pay: number;
  /** How it was paid (1 points, 2 Alipay, 3 WeChat), null until paid. */
  pay_type: ColumnType<number | null, number | null | undefined, number | null>;
  /** Issuance state (contract Notarial 1–4), null while unfinished. */
  notarial: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  updated_at: number;
  paid_at: ColumnType<number | null, number | null | undefined, number | null>;
  stopped_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the user authorised the office to read the evidences (step 3; migration 0014). */
  authorized_at: NullableColumn;
  /** The consumption order (billing_orders) that paid it with points. */
  spend_order_id: NullableColumn;
  /** When the office accepted it (issuance 1). */
  accepted_at: NullableColumn;
  /** The notarial certificate's number, given at acceptance, unique. */
  certificate_no: ColumnType<string | null, string | null | undefined, string | null>;
  issued_at: NullableColumn;
  /** When the points were given back (ended after payment, or terminated by the office). */
  refunded_at: NullableColumn;
  /** The office's last remark to the user (more material asked, termination reason). */
  office_remark: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the user asked for the paper certificate to be mailed (migration 0016). */
  paper_requested_at: NullableColumn;
  /** The courier's waybill number of the paper certificate, once sent. */
  courier_number: ColumnType<string | null, string | null | undefined, string | null>;
  shipped_at: NullableColumn;
}
type NullableColumn = ColumnType<number | null, number | null | undefined, number | null>;
export type NotaryOrderRowDb = Selectable<NotaryOrdersTable>;

/** An evidence an order covers. */
export interface NotaryOrderEvidencesTable {
  order_id: number;
  evidence_id: number;
}

/** Step 1 of an order (migration 0013): the applicant and the delivery address as they were when saved. */
export interface NotaryApplicationsTable {
  order_id: number;
  applicant_kind: 'personal' | 'enterprise';
  applicant_name: string;
  /** In full (the answers mask it). */
  applicant_id_number: string;
  purpose: string;
  use_place: string;
  copies: number;
  recipient: string;
  phone_number: string;
  province: string;
  city: string;
  area: string;
  address: string;
  remark: string;
  created_at: number;
  updated_at: number;
}

/** A signed document of step 2 (doc_type 1–4) or the notarial certificate (5) (migration 0014). */
export interface NotaryDocumentsTable {
  id: Generated<number>;
  order_id: number;
  doc_type: number;
  storage_key: string;
  /** Bytes. */
  file_size: number;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
  created_at: number;
}
export type NotaryDocumentRow = Selectable<NotaryDocumentsTable>;

declare module '../db/schema.ts' {
  interface Database {
    notary_orders: NotaryOrdersTable;
    notary_order_evidences: NotaryOrderEvidencesTable;
    notary_applications: NotaryApplicationsTable;
    notary_documents: NotaryDocumentsTable;
  }
}
