/**
 * The signature seals' table as Kysely sees it (migration 0004; spec 01 §3 Signature). It joins the platform's
 * `Database` by interface merging (decision 060); the row type is imported from here. Times are unix seconds, sizes
 * bytes.
 */
import type { Generated, Selectable } from 'kysely';

/** A signature seal (migration 0004; spec 01 §3 Signature): a PNG of at most 10 MB in the `signatures` bucket. */
export interface SignaturesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Key in the seal storage (`xx/<random>`). */
  storage_key: string;
  /** Bytes. */
  file_size: number;
  /** 1 the user's default seal (at most one per user), else 0. */
  is_default: number;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    signatures: SignaturesTable;
  }
}

export type SignatureRow = Selectable<SignaturesTable>;
