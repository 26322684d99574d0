/**
 * Evidence events (docs/decisions/059-evidence-events.md): what the platform tells its consumers about evidence after
 * the change committed — an evidence was saved (`saved`), or something its certificate shows changed (`state-changed`:
 * its data deleted by the owner). A consumer (the gateway's certificate PDF renderer, `certificate-pdf`) takes them
 * in order through one internal call; each event goes to one taker of a consumer at most once. No I/O.
 *
 * - `POST /api/internal/events/take` (header `x-internal-key`), JSON body {@link TakeEventsBody}: answers
 *   {@link TakenEvents}, the next events after the consumer's cursor, oldest first (none: an empty list).
 */
import { z } from 'zod';
import './zod-locale.ts';

/** The events' internal call. */
export const EventPaths = {
  take: '/api/internal/events/take',
} as const;

/** What happened to the evidence: saved, or a change of what its certificate shows (deleted data). */
export const EVENT_KINDS = ['saved', 'state-changed'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Most events one take answers (the consumer's batch). */
export const MAX_TAKE = 100;

/** Messages of the events call (it is internal: only the gateway sees them). */
export const EventsMsg = {
  badConsumer: '消费者名称不正确',
} as const;

/**
 * The take: the consumer's name (lowercase letters, digits, `.` and `-`, 1–64 characters, e.g. `certificate-pdf`)
 * and how many events at most (1–{@link MAX_TAKE}, default 32).
 */
export const TakeEventsBody = z.object({
  consumer: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{0,63}$/, { message: EventsMsg.badConsumer })
    .describe('the consumer whose cursor advances'),
  max: z.coerce.number().int().min(1).max(MAX_TAKE).default(32),
});
export type TakeEventsBody = z.infer<typeof TakeEventsBody>;

/** One event: its id (ascending in commit order), kind, the evidence's id and number, and when (unix seconds). */
export interface TakenEvent {
  id: number;
  kind: EventKind;
  evidenceId: number;
  baoquan: string;
  createdAt: number;
}

/** The answer of a take: the events, oldest first; empty when the consumer has taken everything. */
export interface TakenEvents {
  events: TakenEvent[];
}
