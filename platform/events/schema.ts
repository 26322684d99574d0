/**
 * The events' tables as Kysely sees them (migration 0027_evidence_events; docs/decisions/059-evidence-events.md).
 * They join the platform's `Database` by interface merging, so platform/db/schema.ts gains no line. Times are unix
 * seconds.
 */
import type { Generated, Selectable } from 'kysely';
import type { EventKind } from '../../contract/events.ts';

/**
 * `evidence_events`: one row per committed change of an evidence that a consumer may act on, written in the same
 * transaction as the change (events.ts `recordEvidenceEvent`). Ids ascend in commit order (every writer holds the
 * ledger's write lock); rows older than EVENT_RETENTION_SECONDS are pruned by the `events.prune` task.
 */
export interface EvidenceEventsTable {
  id: Generated<number>;
  kind: EventKind;
  /** `evidences.id` (no foreign key: the table is a short-lived log, pruned after a week). */
  evidence_id: number;
  /** The evidence's preservation number, what consumers address it by. */
  baoquan: string;
  created_at: number;
}

/** `event_cursors`: per consumer, the id of the last event it took (0: none yet). */
export interface EventCursorsTable {
  /** The consumer's name, e.g. `certificate-pdf`. */
  consumer: string;
  last_id: number;
  /** When the cursor last moved (unix seconds). */
  updated_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    evidence_events: EvidenceEventsTable;
    event_cursors: EventCursorsTable;
  }
}

export type EvidenceEventRow = Selectable<EvidenceEventsTable>;
