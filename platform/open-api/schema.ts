/**
 * The open API's table as Kysely sees it (migration 0021; decision 038): the nonces of signed calls. It joins the
 * platform's `Database` by interface merging (decision 060).
 */

/** Nonces of signed open-API calls (migration 0021): one row per (AppID, nonce), purged after their TTL. */
export interface ApiNoncesTable {
  app_id: string;
  nonce: string;
  /** Unix seconds. */
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    api_nonces: ApiNoncesTable;
  }
}
