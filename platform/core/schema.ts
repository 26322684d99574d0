/**
 * The tables of the shared services in platform/core/ as Kysely sees them (migration 0001): the failed-attempt
 * counters of core/attempts.ts. They belong to the service that writes them, not to one of the areas whose limits
 * they count (login and SMS of the account area, extraction codes of evidence, public lookups of verification, open
 * API signatures; decision 060). They join the platform's `Database` by interface merging.
 */

/** Failed-attempt counters behind login and extraction-code throttling (core/attempts.ts). */
export interface AttemptCountersTable {
  /** SHA-256 hex of the scope and subject, e.g. "login|<ip>|<mobile>". */
  key: string;
  count: number;
  /** Unix seconds. */
  window_start: number;
}

declare module '../db/schema.ts' {
  interface Database {
    attempt_counters: AttemptCountersTable;
  }
}
