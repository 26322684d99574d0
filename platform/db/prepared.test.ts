/** Queries compiled once and run with new values (platform/db/prepared.ts), on SQLite and PostgreSQL. */
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../tests/support/templates.ts';
import { withScratchDatabase } from '../../tests/support/platform.ts';
import { preparedQuery } from './prepared.ts';
import type { Database } from './schema.ts';

interface Scratch {
  items: { id: number; owner: number; name: string; hidden: number };
}

/** A scratch database seen with the scratch table, as the prepared queries take the platform's type. */
const scratch = (db: Kysely<Database>) => db as unknown as Kysely<Scratch>;

async function seed(db: Kysely<Database>): Promise<void> {
  await sql`create table items (id integer primary key, owner integer not null, name text not null, hidden integer not null)`.execute(
    db,
  );
  await scratch(db)
    .insertInto('items')
    .values([
      { id: 1, owner: 7, name: '合同', hidden: 0 },
      { id: 2, owner: 7, name: "it's", hidden: 0 },
      { id: 3, owner: 7, name: '隐藏', hidden: 1 },
      { id: 4, owner: 8, name: '发票', hidden: 0 },
      { id: 5, owner: 7, name: '第三', hidden: 0 },
    ])
    .execute();
}

describe.each(DIALECTS)('preparedQuery [%s]', (dialect) => {
  it('builds once per handle and answers what the query built with the values answers', async () => {
    await withScratchDatabase({ dialect }, async ({ db }) => {
      await seed(db);
      let builds = 0;
      const build = (d: Kysely<Database>, owner: number, after: number) =>
        scratch(d)
          .selectFrom('items')
          .select(['id', 'name'])
          .where('owner', '=', owner)
          .where('id', '>', after)
          .where('hidden', '=', 0) // a constant of the query, not a parameter
          .orderBy('id')
          .limit(2);
      const visible = preparedQuery<{ owner: number; after: number }, { id: number; name: string }>(
        (d, param) => {
          builds++;
          return build(d, param('owner'), param('after'));
        },
      );
      for (const [owner, after] of [
        [7, 0],
        [7, 1],
        [7, 2],
        [8, 0],
        [9, 0],
      ] as const) {
        const rows = await visible(db, { owner, after });
        expect(rows).toEqual(await build(db, owner, after).execute());
      }
      expect(await visible(db, { owner: 7, after: 0 })).toEqual([
        { id: 1, name: '合同' },
        { id: 2, name: "it's" },
      ]);
      expect(builds).toBe(1);
      // Calls in flight at once each get their own values' rows.
      const [a, b] = await Promise.all([
        visible(db, { owner: 8, after: 0 }),
        visible(db, { owner: 7, after: 2 }),
      ]);
      expect(a.map((r) => r.id)).toEqual([4]);
      expect(b.map((r) => r.id)).toEqual([5]);
      // A transaction is a handle of its own: compiled there once, and it sees the transaction's writes.
      await db.transaction().execute(async (trx) => {
        await scratch(trx).insertInto('items').values({ id: 6, owner: 9, name: '新', hidden: 0 }).execute();
        expect(await visible(trx, { owner: 9, after: 0 })).toEqual([{ id: 6, name: '新' }]);
        expect(await visible(trx, { owner: 8, after: 0 })).toEqual([{ id: 4, name: '发票' }]);
      });
      expect(builds).toBe(2);
    });
  });

  it('refuses a parameter written into the SQL text, and a call without a value', async () => {
    await withScratchDatabase({ dialect }, async ({ db }) => {
      await seed(db);
      const inlined = preparedQuery<{ name: string }, { id: number }>((d, param) =>
        scratch(d)
          .selectFrom('items')
          .select('id')
          .where('name', '=', sql.lit(String(param('name')))),
      );
      await expect(inlined(db, { name: '合同' })).rejects.toThrow(/parameter name is not bound/);
      const byOwner = preparedQuery<{ owner: number }, { id: number }>((d, param) =>
        scratch(d).selectFrom('items').select('id').where('owner', '=', param('owner')),
      );
      await expect(byOwner(db, {} as { owner: number })).rejects.toThrow(/no value for parameter owner/);
      expect((await byOwner(db, { owner: 8 })).map((r) => r.id)).toEqual([4]);
    });
  });
});
