/**
 * The operator console for every role (docs/decisions/015-operator-console-roles.md):
 * - `operator_roles`: the roles an operator holds (reviewer, finance, notary, admin), one row each; every operator
 *   that exists before this migration gets `reviewer` and `admin` (they could review and read the whole log);
 * - `ops_audit`: one audit log for every area (area, action, subject, the user concerned, remark), replacing
 *   `kyc_audit`, whose rows move over as area `kyc` with the user id as subject. `operator_id` is null for changes
 *   made with the command line (operator accounts).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { createdAt, idColumn, notNull } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function opsRoles(dialect: Dialect): Migration {
  const withId = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('operator_roles')
        .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('role', 'varchar(20)', notNull)
        .addPrimaryKeyConstraint('operator_roles_pk', ['operator_id', 'role'])
        .execute();
      for (const role of ['reviewer', 'admin']) {
        await db
          .insertInto('operator_roles')
          .columns(['operator_id', 'role'])
          .expression(db.selectFrom('operators').select(['id', sql.lit(role).as('role')]))
          .execute();
      }

      await db.schema
        .createTable('ops_audit')
        .$call(withId)
        .addColumn('operator_id', 'bigint', (c) => c.references('operators.id'))
        .addColumn('area', 'varchar(20)', (c) => c.notNull())
        .addColumn('action', 'varchar(32)', (c) => c.notNull())
        .addColumn('subject', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .$call(createdAt)
        .execute();
      await db.schema.createIndex('ops_audit_area').on('ops_audit').columns(['area', 'id']).execute();
      await db
        .insertInto('ops_audit')
        .columns(['operator_id', 'area', 'action', 'subject', 'user_id', 'remark', 'created_at'])
        .expression(
          db
            .selectFrom('kyc_audit')
            .select([
              'operator_id',
              sql.lit('kyc').as('area'),
              'action',
              sql<string>`cast(user_id as varchar(100))`.as('subject'),
              'user_id',
              'remark',
              'created_at',
            ])
            .orderBy('id'),
        )
        .execute();
      await db.schema.dropTable('kyc_audit').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema
        .createTable('kyc_audit')
        .$call(withId)
        .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('action', 'varchar(16)', (c) => c.notNull())
        .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .$call(createdAt)
        .execute();
      await db.schema.createIndex('kyc_audit_created').on('kyc_audit').column('created_at').execute();
      await db
        .insertInto('kyc_audit')
        .columns(['operator_id', 'user_id', 'action', 'remark', 'created_at'])
        .expression(
          db
            .selectFrom('ops_audit')
            .select(['operator_id', 'user_id', 'action', 'remark', 'created_at'])
            .where('area', '=', 'kyc')
            .where('operator_id', 'is not', null)
            .where('user_id', 'is not', null)
            .orderBy('id'),
        )
        .execute();
      await db.schema.dropTable('ops_audit').execute();
      await db.schema.dropTable('operator_roles').execute();
    },
  };
}
