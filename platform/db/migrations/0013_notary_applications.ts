/**
 * Step 1 of a notarisation order (docs/decisions/034-notary.md): `notary_applications`, one per
 * order, with the applicant's identity and the delivery address copied in as they were when saved (the user's KYC
 * data and addresses may change later; the application the documents are made from must not). Times unix seconds.
 */
import type { Kysely, Migration } from 'kysely';
import { notNull, timestamps } from '../columns.ts';

/** The migration (the same on SQLite and PostgreSQL: no auto-increment key). */
export function notaryApplications(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('notary_applications')
        .addColumn('order_id', 'bigint', (c) =>
          c.primaryKey().references('notary_orders.id').onDelete('cascade'),
        )
        .addColumn('applicant_kind', 'varchar(10)', notNull)
        .addColumn('applicant_name', 'varchar(100)', notNull)
        .addColumn('applicant_id_number', 'varchar(30)', notNull)
        .addColumn('purpose', 'varchar(100)', notNull)
        .addColumn('use_place', 'varchar(50)', notNull)
        .addColumn('copies', 'integer', notNull)
        .addColumn('recipient', 'varchar(20)', notNull)
        .addColumn('phone_number', 'varchar(20)', notNull)
        .addColumn('province', 'varchar(50)', notNull)
        .addColumn('city', 'varchar(50)', notNull)
        .addColumn('area', 'varchar(50)', notNull)
        .addColumn('address', 'varchar(100)', notNull)
        .addColumn('remark', 'varchar(150)', notNull)
        .$call(timestamps)
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('notary_applications').execute();
    },
  };
}
