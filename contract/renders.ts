/**
 * Certificate renders ahead of the first visitor as leased jobs (docs/decisions/064-background-worker.md): the
 * platform turns its evidence events (contract/events.ts, consumer `certificate-pdf`) into render jobs in the same
 * transaction that moves the consumer's cursor, so no saved evidence is forgotten; the background worker
 * (`npm run start:worker`, server/worker/) claims a job with a lease, renders the certificate PDF into the shared
 * cache, and completes or fails it. A job whose worker died (SIGKILL mid-render) is claimed again once its lease
 * passed. All three calls are internal (header `x-internal-key`), JSON in, the envelope out.
 *
 * - `POST claim` {@link ClaimRenderBody} → {@link ClaimedRender} or null (nothing due);
 * - `POST complete` {@link FinishRenderBody} → null (the job is gone; a job no longer this worker's: 409);
 * - `POST fail` {@link FailRenderBody} → null (retried later with a growing delay, failed for good after
 *   {@link RENDER_ATTEMPTS} tries and kept a week for the operators' jobs page).
 */
import { z } from 'zod';
import './zod-locale.ts';

/** The worker's calls. */
export const RenderPaths = {
  claim: '/api/internal/renders/claim',
  complete: '/api/internal/renders/complete',
  fail: '/api/internal/renders/fail',
} as const;

/** The evidence-event consumer whose events become render jobs (its cursor in `event_cursors`). */
export const RENDER_CONSUMER = 'certificate-pdf';

/** Tries of one render job (claims, including claims whose lease ran out) before it fails for good. */
export const RENDER_ATTEMPTS = 5;

/** The languages a certificate is printed in. */
export const RENDER_LANGS = ['zh', 'en'] as const;
export type RenderLang = (typeof RENDER_LANGS)[number];

/** A worker's name: host, process and a random part (`[A-Za-z0-9._-]`, 1–64 characters). */
const WorkerName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/)
  .describe('the claiming worker');

/** `POST claim`: who claims, and for how long (seconds, 10–600). */
export const ClaimRenderBody = z.object({
  worker: WorkerName,
  leaseSeconds: z.coerce.number().int().min(10).max(600),
});
export type ClaimRenderBody = z.infer<typeof ClaimRenderBody>;

/** `POST complete`: the job and the worker holding it. */
export const FinishRenderBody = z.object({
  id: z.coerce.number().int().positive(),
  worker: WorkerName,
});
export type FinishRenderBody = z.infer<typeof FinishRenderBody>;

/** `POST fail`: the job, the worker holding it and why (kept for the operators, at most 500 characters). */
export const FailRenderBody = FinishRenderBody.extend({ error: z.string().min(1).max(500) });
export type FailRenderBody = z.infer<typeof FailRenderBody>;

/** A claimed job: render the certificate of `baoquan` in `lang`; `attempt` counts from 1. */
export interface ClaimedRender {
  id: number;
  baoquan: string;
  lang: RenderLang;
  attempt: number;
  /** Unix seconds when the lease ends; the job may be claimed by another worker after it. */
  leaseUntil: number;
}
