/**
 * The gateway's payment reconciliation job (docs/decisions/018-billing.md): while the process runs it asks the
 * platform, every `intervalMs` (default 30 s), for one reconciliation pass (`POST /api/internal/billing/reconcile`
 * with header `x-internal-key`): pending orders older than a minute are queried at their provider, so a payment
 * whose notification was lost is still credited, and expired ones are closed at the provider and here. The platform
 * claims each order with a conditional update and applies each payment exactly once, so several gateways and
 * restarts are safe: all state is in the database. When the platform cannot be reached the job backs off (doubling
 * the wait up to 16 minutes); passes never overlap.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { BillingInternalPaths, type ReconcileData } from '../../contract/billing.ts';
import type { ApiEnvelope } from '../../contract/envelope.ts';

/** Default pause between two passes, ms. */
export const RECONCILE_INTERVAL_MS = 30_000;
/** Longest pause after repeated failures, ms. */
const MAX_PAUSE_MS = 16 * 60_000;

/** A running job. */
export interface BillingReconciler {
  /** Stops it; waits for a pass in flight to end. Idempotent. */
  stop(): Promise<void>;
  /** Passes attempted so far (tests, diagnostics). */
  readonly rounds: number;
}

/**
 * Starts the job against `${upstreamUrl}/api/internal/billing/reconcile`.
 * @param opts.internalKey the platform's internal key (INTERNAL_API_KEY, or the embedded platform's key file)
 */
export function startBillingReconciler(opts: {
  upstreamUrl: string;
  internalKey: string;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): BillingReconciler {
  const interval = opts.intervalMs ?? RECONCILE_INTERVAL_MS;
  const stopping = new AbortController();
  let rounds = 0;
  let failures = 0;

  async function pass(): Promise<void> {
    const res = await fetch(`${opts.upstreamUrl}${BillingInternalPaths.reconcile}`, {
      method: 'POST',
      headers: { 'x-internal-key': opts.internalKey },
      signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(Math.max(interval * 2, 60_000))]),
    });
    const answer = (await res.json()) as ApiEnvelope<ReconcileData | null>;
    if (Number(answer.code) !== 200 || !answer.data) throw new Error(`reconcile answered ${answer.code}`);
    const { credited, closed, failed } = answer.data;
    if (credited || closed || failed) opts.log.info(answer.data, 'payment reconciliation pass');
  }

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await sleep(Math.min(interval * 2 ** failures, MAX_PAUSE_MS), undefined, {
          signal: stopping.signal,
          ref: false,
        });
        await pass();
        failures = 0;
      } catch (err) {
        if (stopping.signal.aborted) break;
        failures = Math.min(failures + 1, 10);
        if (failures === 3) opts.log.warn({ err }, 'payment reconciliation failing; backing off');
        else opts.log.debug({ err }, 'payment reconciliation pass failed');
      } finally {
        rounds++;
      }
    }
  })();

  return {
    get rounds() {
      return rounds;
    },
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
