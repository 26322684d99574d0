/**
 * One national ID number, one personal account (docs/decisions/025-secrets-sms.md): `kyc_profiles.id_key`, the
 * HMAC of the normalised ID number of a live personal profile (under review or verified; null otherwise), with a
 * unique index. Profiles that exist before this migration get no key: they are indexed when next submitted.
 */
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** The migration (the same on both dialects: NULLs never collide in a unique index). */
export function kycIdUnique(_dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('kyc_profiles').addColumn('id_key', 'varchar(64)').execute();
      await db.schema
        .createIndex('kyc_profiles_id_key')
        .on('kyc_profiles')
        .column('id_key')
        .unique()
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('kyc_profiles_id_key').execute();
      await db.schema.alterTable('kyc_profiles').dropColumn('id_key').execute();
    },
  };
}
