/**
 * The open API's signing (docs/decisions/038-open-api-signing.md):
 * - `kyc_profiles.security_key_sealed`: the SecurityKey encrypted under the platform's API-keys key
 *   (platform/open-api/sealed-keys.ts), so that the platform can check HMAC signatures keyed with it. Keys issued
 *   before have none: their owners rotate once.
 * - `api_nonces`: the nonces each AppID used in the last OPEN_API_NONCE_TTL_SECONDS; the primary key makes a second
 *   use fail whichever platform instance sees it. Purged by creation time.
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, notNull } from '../columns.ts';

/** The migration (the same on SQLite and PostgreSQL). */
export function openApi(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('kyc_profiles').addColumn('security_key_sealed', 'text').execute();
      await createdAt(
        db.schema
          .createTable('api_nonces')
          .addColumn('app_id', 'varchar(32)', notNull)
          .addColumn('nonce', 'varchar(64)', notNull),
      )
        .addPrimaryKeyConstraint('api_nonces_pk', ['app_id', 'nonce'])
        .execute();
      await db.schema.createIndex('api_nonces_created').on('api_nonces').column('created_at').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('api_nonces').execute();
      await db.schema.alterTable('kyc_profiles').dropColumn('security_key_sealed').execute();
    },
  };
}
