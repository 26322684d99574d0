/**
 * Real-name verification (spec 02 §3 KycInfo, §4; docs/decisions/011-kyc-review.md):
 * - `kyc_profiles`: one row per user who ever submitted: kind personal|enterprise, auth_type (1 photo, 3 face, 0
 *   enterprise), the submitted text fields as JSON, submission/review times, the enterprise API credentials;
 * - `kyc_images`: the private images (storage under `${dataDir}/kyc`), one current row per (user, field);
 * - `operators` and `operator_tokens`: the operator console's own accounts and bearer tokens;
 * - `kyc_audit`: every operator decision;
 * - `face_certifications`: Alipay face certifications and their state (open → passed | failed | expired).
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function kyc(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('kyc_profiles')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', notNull)
        .addColumn('auth_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fields_json', 'text', notNull)
        .addColumn('submitted_at', 'bigint', notNull)
        .addColumn('reviewed_at', 'bigint')
        .addColumn('app_id', 'varchar(40)')
        .addColumn('security_key', 'varchar(80)')
        .addColumn('security_key_shown', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('kyc_profiles_submitted')
        .on('kyc_profiles')
        .column('submitted_at')
        .execute();
      await db.schema
        .createIndex('kyc_profiles_app_id')
        .on('kyc_profiles')
        .column('app_id')
        .unique()
        .execute();

      await idCol(db.schema.createTable('kyc_images'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('field', 'varchar(20)', notNull)
        .addColumn('storage_key', 'varchar(100)', notNull)
        .addColumn('mime', 'varchar(40)', notNull)
        .addColumn('file_size', 'bigint', notNull)
        .$call(createdAt)
        .addUniqueConstraint('kyc_images_user_field', ['user_id', 'field'])
        .execute();

      await idCol(db.schema.createTable('operators'))
        .addColumn('username', 'varchar(60)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', notNull)
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(createdAt)
        .execute();
      await idCol(db.schema.createTable('operator_tokens'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .$call(createdAt)
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('revoked_at', 'bigint')
        .execute();

      await idCol(db.schema.createTable('kyc_audit'))
        .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.id'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('action', 'varchar(16)', notNull)
        .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .$call(createdAt)
        .execute();
      await db.schema.createIndex('kyc_audit_created').on('kyc_audit').column('created_at').execute();

      await idCol(db.schema.createTable('face_certifications'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('certify_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('outer_order_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
        .addColumn('fail_reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .$call(createdAt)
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('face_certifications_state')
        .on('face_certifications')
        .columns(['state', 'expires_at'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of [
        'face_certifications',
        'kyc_audit',
        'operator_tokens',
        'operators',
        'kyc_images',
        'kyc_profiles',
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
