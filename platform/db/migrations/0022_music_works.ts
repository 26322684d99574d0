/**
 * Music works (decision 039; contract/music.ts): `evidences.work_json` holds a music evidence's work metadata —
 * ISRC, authors by role, and the duration and format read from the file (JSON of contract MusicWork); null for other
 * kinds.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function musicWorks(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('evidences').addColumn('work_json', 'text').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('evidences').dropColumn('work_json').execute();
    },
  };
}
