/**
 * RFC 3161 time-stamp tokens of the ledger's checkpoints (decision 035): one row per checkpoint a
 * Time-Stamp Authority stamped — its tree size and root, the signed checkpoint note exactly as stamped (the token's
 * message imprint is SHA-256 of its UTF-8 bytes), the token (DER TimeStampToken, base64), the TSA's time and name,
 * and when we got it (unix seconds).
 */
import type { Kysely, Migration } from 'kysely';
import { notNull } from '../columns.ts';

/** The migration (the same on SQLite and PostgreSQL). */
export function ledgerTimestamps(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_timestamps')
        .addColumn('tree_size', 'bigint', (c) => c.primaryKey())
        .addColumn('root_hash', 'varchar(64)', notNull)
        .addColumn('note', 'text', notNull)
        .addColumn('token', 'text', notNull)
        .addColumn('gen_time', 'bigint', notNull)
        .addColumn('tsa', 'varchar(200)', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('ledger_timestamps').execute();
    },
  };
}
