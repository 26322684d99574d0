/**
 * Enterprise SecurityKeys at rest (docs/decisions/026-bad-input-and-keys.md; platform/kyc/security-key.ts): rows
 * of `kyc_profiles` that still hold a key in clear are rewritten so no clear key stays in the database:
 * - a key already shown to its owner (`security_key_shown` 1) becomes
 *   `sha256:<first 4 and last 4 characters>:<SHA-256 hex>`: the owner keeps using it and sees the same mask;
 * - a key never shown (0) is dropped (null): nobody knows it, and the owner's next KYC page visit issues a new one.
 * Rows already in the hashed form are left alone, so the migration is safe to run on any data. The column stays
 * `varchar(80)`, the hashed form's exact length. The hashing is spelled out here, not imported, so later changes
 * to the module cannot change what this migration did.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

const PREFIX = 'sha256:';

/** The migration (the same on both dialects). */
export function kycSecurityKey(_dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const rows = (await db
        .selectFrom('kyc_profiles')
        .select(['user_id', 'security_key', 'security_key_shown'])
        .where('security_key', 'is not', null)
        .execute()) as { user_id: number | string; security_key: string; security_key_shown: number }[];
      for (const row of rows) {
        const key = row.security_key;
        if (key.startsWith(PREFIX)) continue;
        const stored =
          Number(row.security_key_shown) === 1
            ? `${PREFIX}${key.slice(0, 4)}${key.slice(-4)}:${createHash('sha256').update(key).digest('hex')}`
            : null;
        await db
          .updateTable('kyc_profiles')
          .set({ security_key: stored })
          .where('user_id', '=', row.user_id)
          .where('security_key', '=', key)
          .execute();
      }
    },
    /**
     * Nothing to undo in the schema (the column is unchanged), and a hashed key cannot be turned back into the clear
     * one: the rows keep their hashes (an owner who needs the key in clear rotates it). Without a
     * `down` Kysely would skip this migration when migrating down and refuse the next `up` (migration order).
     */
    async down() {},
  };
}
