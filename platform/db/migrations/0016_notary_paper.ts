/**
 * The paper notarial certificate (decision 034: the user can ask for the paper copy at their address): when the user
 * asked for it to be mailed (`paper_requested_at`), and the courier's waybill number once the office sent it
 * (`courier_number`, `shipped_at`). Times unix seconds.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function notaryPaper(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('notary_orders').addColumn('paper_requested_at', 'bigint').execute();
      await db.schema.alterTable('notary_orders').addColumn('courier_number', 'varchar(30)').execute();
      await db.schema.alterTable('notary_orders').addColumn('shipped_at', 'bigint').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const c of ['shipped_at', 'courier_number', 'paper_requested_at'])
        await db.schema.alterTable('notary_orders').dropColumn(c).execute();
    },
  };
}
