/**
 * Evidence lists (spec 01 §2.4): the kinds of a list (`v`), the filters of the list query (keyword, labels,
 * dates, kind) on the full-text and trigram indexes, and the labels a user has used.
 */
import { sql, type Kysely } from 'kysely';
import {
  BATCH_LIST_V,
  type EvidenceListData,
  type EvidenceListQuery,
  type LabelItem,
} from '../../contract/evidence.ts';
import { formatBeijing } from '../core/time.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceKind } from './schema.ts';
import { formatBeijingDate } from './certificate.ts';

/** Escapes LIKE wildcards so a keyword matches literally (ESCAPE '\'). */
function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The kinds the batch download screen offers (`v=download`) and getLabelList gives labels of by default: every kind
 * whose package holds the preserved bytes — file, app, user data, and the captures and music works of 在线取证 (decision
 * 039) — never hash evidence.
 */
export const BATCH_KINDS: readonly EvidenceKind[] = ['file', 'app', 'property', 'web', 'process', 'music'];

/**
 * Which kinds a list shows: getList lists file and app evidence, `v=property` user data, `v=download`
 * (BATCH_LIST_V) the BATCH_KINDS together for the batch download screen (spec 01 §2.4, decision 028);
 * getHashSaveList hash; `v=web`, `v=process`, `v=app` and `v=music` that kind alone (decision 039).
 */
export function listKinds(v: string | undefined): EvidenceKind[] {
  if (v === BATCH_LIST_V) return [...BATCH_KINDS];
  if (isOwnKindList(v)) return [v];
  return v === 'property' ? ['property'] : v === 'hash' ? ['hash'] : ['file', 'app'];
}

/** The 在线取证 kinds whose list (`v=<kind>`) shows that kind alone. */
const OWN_KIND_LISTS: ReadonlySet<string> = new Set<EvidenceKind>(['web', 'process', 'app', 'music']);
function isOwnKindList(v: string | undefined): v is EvidenceKind {
  return v !== undefined && OWN_KIND_LISTS.has(v);
}

/**
 * Which kinds getLabelList gives labels of: those of the list `v` names (`file`, `property` or a 在线取证 kind), else
 * the BATCH_KINDS (the batch download screen asks without `v`); hash labels have their own call.
 */
export function labelKinds(v: string | undefined): EvidenceKind[] {
  return v === 'file' || v === 'property' || isOwnKindList(v) ? listKinds(v) : [...BATCH_KINDS];
}

/** Shortest keyword the trigram index can look up (3 characters); shorter ones scan the user's rows. */
export const INDEXED_KEYWORD_CHARS = 3;

/**
 * FTS5 query of `keyword` as one phrase over title and file name: with the trigram tokenizer a phrase matches where
 * the text contains it (case-insensitively), as `like '%keyword%'` does. Double quotes are doubled (FTS5 strings).
 */
function ftsPhrase(keyword: string): string {
  return `{title file_name} : "${keyword.replace(/"/g, '""')}"`;
}

/**
 * One page of `userId`'s evidence of `kinds`, newest first, with the spec 01 §2.4 filters: type (0 = all), exact
 * label, keyword in title or file name (case-insensitive), startTime/endTime unix seconds inclusive. Deleted evidence
 * is listed too, with its `deletedAt`.
 *
 * Cost (migration 0011): the unfiltered total is read from `evidence_counts`; a keyword of 3 characters or more is
 * looked up in the trigram index (SQLite FTS5, PostgreSQL pg_trgm), so a search costs what it finds, not what the
 * user has; the page itself comes from the (user_id, kind, created_at) index.
 */
export async function listEvidence(
  pdb: Pick<PlatformDb, 'db' | 'dialect'>,
  userId: number,
  q: EvidenceListQuery,
  kinds: EvidenceKind[] = ['file', 'app'],
): Promise<EvidenceListData> {
  const { db } = pdb;
  const indexedSearch =
    !!q.keyword && pdb.dialect === 'sqlite' && [...q.keyword].length >= INDEXED_KEYWORD_CHARS;
  // For an indexed search SQLite must start from the index's matches: left to itself it walks the user's rows by
  // the (user_id, kind) index and tests each against them, which costs what the user has. A unary + keeps a column
  // out of index selection (https://sqlite.org/optoverview.html#disqualifying_where_clause_terms_using_unary_).
  let base = indexedSearch
    ? db
        .selectFrom('evidences')
        .where(sql<number>`+user_id`, '=', userId)
        .where(sql<string>`+kind`, 'in', kinds)
    : db.selectFrom('evidences').where('user_id', '=', userId).where('kind', 'in', kinds);
  if (q.type) base = base.where('file_type', '=', q.type);
  if (q.label) base = base.where('label', '=', q.label);
  if (q.keyword) {
    if (indexedSearch) {
      const phrase = ftsPhrase(q.keyword);
      base = base.where(
        sql<boolean>`id in (select rowid from evidences_fts where evidences_fts match ${phrase})`,
      );
    } else {
      // PostgreSQL serves this from its pg_trgm indexes on lower(title) and lower(file_name)
      const pattern = likePattern(q.keyword);
      base = base.where(
        sql<boolean>`(lower(title) like ${pattern} escape '\\' or lower(file_name) like ${pattern} escape '\\')`,
      );
    }
  }
  if (q.startTime !== undefined) base = base.where('created_at', '>=', q.startTime);
  if (q.endTime !== undefined) base = base.where('created_at', '<=', q.endTime);
  const unfiltered =
    !q.type && !q.label && !q.keyword && q.startTime === undefined && q.endTime === undefined;
  const [{ count }, rows] = await Promise.all([
    unfiltered
      ? db
          .selectFrom('evidence_counts')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('count'))
          .where('user_id', '=', userId)
          .where('kind', 'in', kinds)
          .executeTakeFirstOrThrow()
      : base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'baoquan', 'title', 'file_type', 'label', 'created_at', 'kind', 'deleted_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
  ]);
  return {
    count: Number(count),
    list: rows.map((r) => ({
      id: r.id,
      baoquan: r.baoquan,
      title: r.title,
      fileType: r.file_type,
      label: r.label,
      saveTime: formatBeijing(r.created_at),
      kind: r.kind,
      deletedAt: r.deleted_at === null ? null : formatBeijingDate(r.deleted_at),
    })),
  };
}

/**
 * The distinct non-empty labels of `userId`'s evidence of `kinds` (default: BATCH_KINDS, all but hash), sorted; read from
 * `evidence_labels` (migration 0011), so the cost is the number of labels, not of evidences.
 */
export async function listLabels(
  db: Kysely<Database>,
  userId: number,
  kinds: readonly EvidenceKind[] = BATCH_KINDS,
): Promise<LabelItem[]> {
  const rows = await db
    .selectFrom('evidence_labels')
    .select('label')
    .distinct()
    .where('user_id', '=', userId)
    .where('kind', 'in', kinds)
    .where('n', '>', 0)
    .orderBy('label')
    .execute();
  return rows.map((r) => ({ label: r.label }));
}
