/**
 * Promotion codes (兑换码; docs/decisions/062-promotion-codes.md):
 * - `promo_batches`: id, name, remark, points per redemption, code count, uses per code, expires_at (unix seconds:
 *   the end of the expiry day, Beijing), disabled_at (unix seconds, null while enabled), the minting operator,
 *   created_at, updated_at;
 * - `promo_codes`: id, batch_id, the code (16 characters, unique: the lookup of a redemption), uses and max_uses
 *   (the conditional UPDATE `uses < max_uses` is what keeps a code within its limit under concurrency);
 * - `promo_redemptions`: id, code_id, batch_id, user_id, points, created_at; unique (code_id, user_id), so a user
 *   redeems a code once, whatever the concurrency.
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function promoCodes(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await timestamps(
        idColumn(dialect)(db.schema.createTable('promo_batches'))
          .addColumn('name', 'varchar(50)', notNull)
          .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
          .addColumn('points', 'integer', notNull)
          .addColumn('code_count', 'integer', notNull)
          .addColumn('uses_per_code', 'integer', notNull)
          .addColumn('expires_at', 'bigint', notNull)
          .addColumn('disabled_at', 'bigint')
          .addColumn('operator_id', 'bigint', (c) => c.references('operators.id').onDelete('set null')),
      ).execute();
      await createdAt(
        idColumn(dialect)(db.schema.createTable('promo_codes'))
          .addColumn('batch_id', 'bigint', (c) =>
            c.notNull().references('promo_batches.id').onDelete('cascade'),
          )
          .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
          .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('max_uses', 'integer', notNull),
      ).execute();
      await db.schema.createIndex('promo_codes_batch').on('promo_codes').column('batch_id').execute();
      await createdAt(
        idColumn(dialect)(db.schema.createTable('promo_redemptions'))
          .addColumn('code_id', 'bigint', (c) => c.notNull().references('promo_codes.id').onDelete('cascade'))
          .addColumn('batch_id', 'bigint', (c) =>
            c.notNull().references('promo_batches.id').onDelete('cascade'),
          )
          .addColumn('user_id', 'bigint', ownedByUser)
          .addColumn('points', 'integer', notNull),
      ).execute();
      await db.schema
        .createIndex('promo_redemptions_once')
        .on('promo_redemptions')
        .columns(['code_id', 'user_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('promo_redemptions_batch')
        .on('promo_redemptions')
        .column('batch_id')
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('promo_redemptions').execute();
      await db.schema.dropTable('promo_codes').execute();
      await db.schema.dropTable('promo_batches').execute();
    },
  };
}
