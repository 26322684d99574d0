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
}
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

declare module '../db/schema.ts' {
  interface Database {
    notary_orders: NotaryOrdersTable;
    notary_order_evidences: NotaryOrderEvidencesTable;
    notary_applications: NotaryApplicationsTable;
  }
}
