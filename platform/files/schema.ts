/**
 * The storage service's table as Kysely sees it (migration 0024; decision 046; platform/files/README.md): the
 * objects announced before they are stored, which the `files.sweep` task removes when their row never committed.
 * It joins the platform's `Database` by interface merging (decision 060).
 */

/** An object about to be stored (migration 0024; platform/files/intents.ts). Unix seconds. */
export interface FileIntentsTable {
  bucket: string;
  storage_key: string;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    file_intents: FileIntentsTable;
  }
}
