/**
 * Every row that names a stored object, as one stream (docs/decisions/042-backups.md): what a
 * backup copies and what the check after a restore looks for ("no row without its file"). Each table with a
 * `storage_key` and `file_size` belongs to one bucket of files/storage.ts; rows are read page by page in id order,
 * so memory stays bounded whatever the database holds.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BucketName } from '../files/storage.ts';

/** One stored object as its row records it: `size` in bytes, `sha256` lower-case hex where the table keeps it. */
export interface StoredFileRow {
  bucket: BucketName;
  table: string;
  id: number;
  key: string;
  size: number;
  sha256: string | null;
}

/**
 * The tables whose rows own an object, with the condition under which the object must exist: an evidence keeps
 * its bytes until the deletion sweep purges them (spec 01 §4; `purged_at`), and a hash-only evidence has none.
 */
const SOURCES: readonly { table: string; bucket: BucketName; hashed: boolean; where: string }[] = [
  { table: 'evidences', bucket: 'evidence', hashed: true, where: "storage_key <> '' and purged_at is null" },
  { table: 'signatures', bucket: 'signatures', hashed: false, where: '1 = 1' },
  { table: 'kyc_images', bucket: 'kyc', hashed: false, where: '1 = 1' },
  { table: 'invoice_files', bucket: 'invoices', hashed: true, where: '1 = 1' },
  { table: 'notary_documents', bucket: 'notary', hashed: true, where: '1 = 1' },
];

/** Rows per page. */
const PAGE = 1000;

/** Every row of {@link SOURCES} that must have its object, table by table, in id order. */
export async function* storedFileRows(db: Kysely<Database>): AsyncGenerator<StoredFileRow> {
  for (const s of SOURCES) {
    let after = 0;
    for (;;) {
      const { rows } = await sql<{
        id: number;
        storage_key: string;
        file_size: number;
        sha256: string | null;
      }>`
        select id, storage_key, file_size, ${sql.raw(s.hashed ? 'sha256' : 'null')} as sha256
        from ${sql.table(s.table)}
        where ${sql.raw(s.where)} and id > ${after}
        order by id
        limit ${PAGE}`.execute(db);
      for (const r of rows) {
        yield {
          bucket: s.bucket,
          table: s.table,
          id: Number(r.id),
          key: r.storage_key,
          size: Number(r.file_size),
          sha256: r.sha256,
        };
      }
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1]!.id);
    }
  }
}

/** How a row's object is named in reports: `bucket/key (table #id)`. */
export function describeRow(r: StoredFileRow): string {
  return `${r.bucket}/${r.key} (${r.table} #${r.id})`;
}
