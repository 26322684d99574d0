/**
 * What a recharge was bought for (a notarisation order paid with Alipay or WeChat Pay;
 * docs/decisions/034-notary.md): `billing_orders.purpose` ('' for a plain recharge, 'notary' for one bought to pay a
 * notary order) and `purpose_id` (that order's id). When the recharge is credited, the purpose's handler spends the
 * points on it in the same transaction (platform/billing/apply.ts).
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function billingPurpose(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('billing_orders')
        .addColumn('purpose', 'varchar(20)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('billing_orders').addColumn('purpose_id', 'bigint').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('billing_orders').dropColumn('purpose_id').execute();
      await db.schema.alterTable('billing_orders').dropColumn('purpose').execute();
    },
  };
}
