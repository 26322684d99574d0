/**
 * Bulk evidence rows for the benches' "cost flat as data grows" rows (decision 032): rows written straight
 * into a running product's SQLite database (WAL lets the bench write beside the server), as the platform's save
 * would leave them minus the stored file and ledger leaf, which lists and searches do not read. The triggers of
 * migration 0011 keep the totals, labels and search index as they do for saved evidence.
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { DEMO_MOBILE } from '../../platform/account/users.ts';

/** Titles and labels of the seeded rows: Chinese text as users write it; none contains the bench's no-match keyword. */
const TITLES = ['租赁合同扫描件', '现场照片', '聊天记录截图', '发票', '录音证据', '网页取证'];
const LABELS = ['', '合同', '照片', '财务'];

/**
 * Adds `count` evidences (file kind, newest last) to the demo account of the product whose DATA_DIR is `dataDir`.
 * @returns the seconds it took
 */
export function seedEvidences(dataDir: string, count: number): number {
  const started = performance.now();
  const db = new SqliteDatabase(path.join(dataDir, 'cunzheng.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const user = db.prepare('select id from users where mobile = ?').get(DEMO_MOBILE) as { id: number };
    const insert = db.prepare(
      `insert into evidences (baoquan, user_id, title, label, file_name, file_size, file_type, mime, sha256,
         storage_key, status, created_at, kind)
       values (?, ?, ?, ?, ?, 1024, 2, 'image/png', ?, '', 1, ?, 'file')`,
    );
    const now = Math.floor(Date.now() / 1000) - count;
    const sha = 'ab'.repeat(32);
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const title = `${TITLES[i % TITLES.length]} ${i}`;
        insert.run(
          `BQSEED${String(i).padStart(9, '0')}`,
          user.id,
          title,
          LABELS[i % LABELS.length],
          `seed-${i}.png`,
          sha,
          now + i,
        );
      }
    });
    for (let i = 0; i < count; i += 10_000) batch(i, Math.min(count, i + 10_000));
  } finally {
    db.close();
  }
  return (performance.now() - started) / 1000;
}

/**
 * The same rows in a running product's PostgreSQL database (`url`), in one statement: `count` evidences for the
 * demo account, then `analyze` so that the planner knows the table's size as it would in production.
 * @returns the seconds it took
 */
export async function seedEvidencesPostgres(url: string, count: number): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const user = await client.query<{ id: string }>('select id from users where mobile = $1', [DEMO_MOBILE]);
    await client.query(
      `insert into evidences (baoquan, user_id, title, label, file_name, file_size, file_type, mime, sha256,
         storage_key, status, created_at, kind)
       select 'BQSEED' || lpad(i::text, 9, '0'), $1, ($2::text[])[1 + i % $3] || ' ' || i, ($4::text[])[1 + i % $5],
         'seed-' || i || '.png', 1024, 2, 'image/png', $6, '', 1, $7 + i, 'file'
       from generate_series(0, $8 - 1) as i`,
      [
        user.rows[0]!.id,
        TITLES,
        TITLES.length,
        LABELS,
        LABELS.length,
        'ab'.repeat(32),
        Math.floor(Date.now() / 1000) - count,
        count,
      ],
    );
    await client.query('analyze evidences');
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}
