/**
 * The database's spans (decision 044): with tracing on, every statement of the platform's Kysely handle — in
 * migrations, transactions (their connection released through the wrapper) and plain queries — is a client span
 * with its parameterised text and no bound value, on SQLite and PostgreSQL; a failing statement still fails and
 * has its span; with tracing off the dialect is the original.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/platform.ts';
import { eventually, startCollector } from '../../tests/support/otlp-collector.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { startTracing, tracedDialect } from '../../lib/tracing.ts';
import { tracingConfig } from '../../lib/config-shared.ts';

describe('SQL spans', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let stop: (() => Promise<void>) | null = null;
  let dir: string;
  beforeAll(async () => {
    collector = await startCollector();
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-tracing-'));
  });
  afterAll(async () => {
    await stop?.();
    await collector?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('are off without OTEL_EXPORTER_OTLP_ENDPOINT: the dialect is untouched', async () => {
    const dialect = new SqliteDialect({ database: {} as never });
    expect(tracedDialect(dialect, 'sqlite')).toBe(dialect);
    expect(
      await startTracing(
        tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SDK_DISABLED: 'true' }),
        'x',
      ),
    ).toBeNull();
  });

  it.each(['sqlite', 'postgresql'] as const)(
    'cover every statement on %s, values left out',
    async (system) => {
      stop ??= await startTracing(
        tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '50' }),
        'test',
      );
      const pg = system === 'postgresql' ? await createTestDatabase() : null;
      const pdb = openDatabase(
        pg
          ? { dialect: 'postgres', url: pg.url }
          : { dialect: 'sqlite', file: path.join(dir, 'traced.sqlite') },
      );
      try {
        await migrateToLatest(pdb);
        const secret = `13${Date.now()}`.slice(0, 11);
        await pdb.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('attempt_counters')
            .values({ key: secret, count: 1, window_start: 1 })
            .execute();
        });
        await expect(sql`select * from no_such_table`.execute(pdb.db)).rejects.toThrow();
        const spans = await eventually(() => {
          const mine = collector.spans.filter((s) => s.attributes['db.system.name'] === system);
          return mine.some((s) => String(s.attributes['db.query.text']).includes('no_such_table'))
            ? mine
            : undefined;
        });
        const texts = spans.map((s) => String(s.attributes['db.query.text']));
        expect(texts.some((t) => /^insert into "attempt_counters"/.test(t))).toBe(true);
        expect(texts.some((t) => /^begin/i.test(t))).toBe(true);
        expect(texts.some((t) => /^commit/i.test(t))).toBe(true);
        expect(spans.find((s) => s.attributes['db.query.text'] === 'select * from no_such_table')?.name).toBe(
          'SELECT',
        );
        expect(JSON.stringify(spans)).not.toContain(secret);
      } finally {
        await pdb.close();
        await pg?.drop();
      }
    },
  );
});
