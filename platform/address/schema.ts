/**
 * The delivery addresses' table as Kysely sees it (migration 0004; spec 02 §3 Address). It joins the platform's
 * `Database` by interface merging (decision 060); the row type is imported from here. Times are unix seconds.
 */
import type { Generated, Selectable } from 'kysely';

/** A delivery address (migration 0004; spec 02 §3 Address). At most 5 per user; `status` 1 = default. */
export interface AddressesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  province: string;
  city: string;
  area: string;
  address: string;
  phone_number: string;
  email: string;
  status: number;
  created_at: number;
  updated_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    addresses: AddressesTable;
  }
}

export type AddressRow = Selectable<AddressesTable>;
