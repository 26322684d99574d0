/**
 * The certificate render jobs' table as Kysely sees it (migration 0029_render_jobs;
 * docs/decisions/064-background-worker.md). It joins the platform's `Database` by interface merging (decision 060).
 * Times are unix seconds.
 */
import type { Generated, Selectable } from 'kysely';
import type { RenderLang } from '../../contract/renders.ts';
import type { Defaulted } from '../db/schema.ts';

/** `queued` (waiting from `run_at` on), `active` (claimed, leased), `failed` (for good, kept a week). */
export type RenderJobState = 'queued' | 'active' | 'failed';

/**
 * `render_jobs`: one certificate PDF to render ahead into the shared cache. At most one `queued` row per (baoquan,
 * lang) (a partial unique index); a completed job is deleted.
 */
export interface RenderJobsTable {
  id: Generated<number>;
  /** The evidence's preservation number. */
  baoquan: string;
  lang: RenderLang;
  state: RenderJobState;
  /** Due from this time on (unix seconds): its creation, or a retry's backoff. */
  run_at: number;
  /** Claims so far, including claims whose lease ran out. */
  attempts: Defaulted<number>;
  /** The claiming worker's name while active. */
  worker: string | null;
  /** When the active claim's lease ends (unix seconds); null unless active. */
  lease_until: number | null;
  /** The last failure's message (at most 500 characters), shown to operators. */
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    render_jobs: RenderJobsTable;
  }
}

export type RenderJobRow = Selectable<RenderJobsTable>;
