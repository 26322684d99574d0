/**
 * The platform's recurring jobs on the job queue (queue.ts; decision 045), started when the app is ready and
 * stopped before it closes, in every platform process unless PLATFORM_JOBS=0; decorated as `app.jobs` (the
 * operator console's and the metrics' view), null when off.
 *
 * - `face.poll` (spec 02 §4 "Face flow": every 3 s): asks Alipay (or the sandbox) for every open face certification
 *   and applies each result once (kyc/face.ts); before, the gateway called the platform for this on a timer;
 * - `billing.reconcile` (every 30 s): queries the provider about pending recharge orders, credits paid ones once,
 *   closes expired ones (billing/reconcile.ts);
 * - `files.sweep` (every 10 min): deletes the objects a crashed save left without a row (files/intents.ts);
 * - `events.prune` (every hour): deletes evidence events older than a week (events/events.ts; decision 059) and
 *   certificate render jobs failed more than a week ago (renders/stats.ts; docs/decisions/064-background-worker.md).
 *
 * The console's call also shows the background worker's jobs (certificate renders, captures: work.ts), read from
 * the database whether or not this process works the queue.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { JobsOpsPaths, type JobsView } from '../../contract/jobs.ts';
import { ok } from '../../contract/envelope.ts';
import { reconcilePending } from '../billing/reconcile.ts';
import { requireRole } from '../ops/auth.ts';
import { sweepIntents } from '../files/intents.ts';
import { pruneEvents } from '../events/events.ts';
import { nowSeconds } from '../core/time.ts';
import { pruneRenders } from '../renders/stats.ts';
import { pollOpenCertifications } from '../kyc/face.ts';
import type { PgQueueOptions } from './pg-queue.ts';
import type { JobQueue, RecurringTask } from './queue.ts';
import { SqliteJobQueue } from './sqlite-queue.ts';
import { workerJobViews } from './work.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue this process works, or null with PLATFORM_JOBS=0. */
    jobs: JobQueue | null;
  }
}

/** Spec 02 §9: face poll interval 3 seconds. */
export const FACE_POLL_SECONDS = 3;
/** Payment reconciliation pass interval, seconds. */
export const RECONCILE_SECONDS = 30;
/** Sweep of objects whose process died before their row committed (files/intents.ts), seconds. */
export const SWEEP_SECONDS = 600;
/** Prune of evidence events and failed render jobs past their week (events/events.ts, renders/stats.ts), seconds. */
export const EVENTS_PRUNE_SECONDS = 3600;

/** The platform's recurring tasks. */
export function platformTasks(app: FastifyInstance): RecurringTask[] {
  return [
    {
      name: 'face.poll',
      everySeconds: FACE_POLL_SECONDS,
      expireSeconds: 60,
      retryLimit: 3,
      retryDelaySeconds: FACE_POLL_SECONDS,
      run: async () => void (await pollOpenCertifications(app)),
    },
    {
      name: 'files.sweep',
      everySeconds: SWEEP_SECONDS,
      expireSeconds: 600,
      retryLimit: 3,
      retryDelaySeconds: 60,
      run: async () => void (await sweepIntents(app.pdb.db, app.files.storage)),
    },
    {
      name: 'billing.reconcile',
      everySeconds: RECONCILE_SECONDS,
      expireSeconds: 120,
      retryLimit: 3,
      retryDelaySeconds: RECONCILE_SECONDS,
      run: async () => void (await reconcilePending(app)),
    },
    {
      name: 'events.prune',
      everySeconds: EVENTS_PRUNE_SECONDS,
      expireSeconds: 300,
      retryLimit: 3,
      retryDelaySeconds: 60,
      run: async () => {
        await pruneEvents(app.pdb.db);
        await pruneRenders(app.pdb.db);
      },
    },
  ];
}

/** Options of {@link jobsPlugin}: pg-boss timings (tests shorten them). */
export interface JobsPluginOptions {
  pg?: PgQueueOptions;
}

/**
 * Registers the queue and its console call (`GET /api/ops/jobs`, admin: contract/jobs.ts: the recurring tasks and
 * the background worker's jobs); register after the routes' services (face, billing) and the operator
 * authenticator.
 */
export const jobsPlugin = fp(async (app: FastifyInstance, opts: JobsPluginOptions) => {
  app.get(JobsOpsPaths.jobs, { preHandler: app.requireOperator }, async (request) => {
    requireRole(request, 'admin');
    const view: JobsView = {
      kind: app.jobs?.kind ?? null,
      tasks: app.jobs ? await app.jobs.stats() : [],
      work: await workerJobViews(app.pdb.db, nowSeconds()),
    };
    return ok(view);
  });
  if (!app.config.jobs) {
    app.decorate('jobs', null);
    return;
  }
  const log = app.log.child({ part: 'jobs' });
  const { database } = app.config;
  const queue: JobQueue =
    database.dialect === 'postgres'
      ? new (await import('./pg-queue.ts')).PgBossJobQueue(database.url, log, opts.pg) // pg-boss only on PostgreSQL
      : new SqliteJobQueue(app.pdb.db, log);
  app.decorate('jobs', queue);
  app.addHook('onReady', async () => queue.start(platformTasks(app)));
  // before the database closes: a run going now finishes first
  app.addHook('preClose', async () => queue.stop());
});
