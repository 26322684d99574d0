/**
 * Certificate renders as leased jobs (docs/decisions/064-background-worker.md; contract/renders.ts) on both
 * dialects: a saved evidence becomes a `zh` render job at the next claim; several events of one evidence coalesce
 * into one queued job; a job whose worker died (SIGKILL: never completed) is claimed again by another worker only
 * after its lease, and fails for good after RENDER_ATTEMPTS expired leases; a worker that does not hold a job cannot
 * complete or fail it (409, the job untouched); a failed render is retried with a doubling delay and fails for good
 * after RENDER_ATTEMPTS tries, visible in the stats, the operators' jobs call and the metrics, then pruned after a
 * week; two claimers on two database handles never get the same job and together get all; the internal calls want
 * the key and well-formed bodies; migration 0029 goes up and down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { JobsOpsPaths, type JobsView } from '../../contract/jobs.ts';
import { RENDER_ATTEMPTS, RenderPaths, type ClaimedRender } from '../../contract/renders.ts';
import { operatorToken } from '../../tests/support/invoice.ts';
import {
  forEachDialect,
  get,
  login,
  post,
  saveDemoHashEvidence,
  withScratchDatabase,
} from '../../tests/support/platform.ts';
import { PLATFORM_METRICS_PATH } from '../core/metrics.ts';
import { nowSeconds } from '../core/time.ts';
import { openDatabase, type PlatformDb } from '../db/database.ts';
import { recordEvidenceEvent } from '../events/events.ts';
import { withLedgerTransaction } from '../ledger/transaction.ts';
import {
  claimRender,
  completeRender,
  failRender,
  ingestEvents,
  RenderMsg,
  retryDelaySeconds,
} from './service.ts';
import { FAILED_RENDER_RETENTION_SECONDS, pruneRenders, renderStats } from './stats.ts';

forEachDialect('certificate render jobs', (h) => {
  let demoId: number;
  let demoToken: string;
  let n = 0;
  beforeAll(async () => {
    const row = await h.app.pdb.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', '13800138000')
      .executeTakeFirstOrThrow();
    demoId = Number(row.id);
    demoToken = await login(h.app, '13800138000', 'demo1234');
  });

  /** Saves hash evidence of the demo account (its `saved` event commits with it). */
  const save = () => saveDemoHashEvidence(h.app, `证书任务 ${++n}`);
  const jobs = () => h.app.pdb.db.selectFrom('render_jobs').selectAll().orderBy('id').execute();
  /** Every event so far turned into jobs, and every job gone: each case starts from an empty table. */
  const fresh = async () => {
    while ((await ingestEvents(h.app.pdb, nowSeconds())) > 0);
    await h.app.pdb.db.deleteFrom('render_jobs').execute();
  };
  const internal = (url: string, payload: Record<string, unknown>, key: string | null = h.app.internalKey) =>
    h.app.inject({ method: 'POST', url, payload, headers: key === null ? {} : { 'x-internal-key': key } });

  it('a saved evidence is rendered: the claim ingests its event and answers its zh job, once', async () => {
    await fresh();
    const t = nowSeconds();
    const saved = await save();
    const job = await claimRender(h.app.pdb, 'w-1', 60, t);
    expect(job).toEqual({
      id: expect.any(Number),
      baoquan: saved.baoquan,
      lang: 'zh',
      attempt: 1,
      leaseUntil: t + 60,
    });
    expect(await claimRender(h.app.pdb, 'w-2', 60, t)).toBeNull();
    await completeRender(h.app.pdb.db, job!.id, 'w-1');
    expect(await jobs()).toEqual([]);
  });

  it('events of one evidence coalesce into one queued job; an event during a render queues the next', async () => {
    await fresh();
    const t = nowSeconds();
    const saved = await save();
    // the owner's deletion: a state-changed event, which also means "render again"
    expect((await post(h.app, EvidencePaths.delData, { dataId: saved.id }, demoToken)).code).toBe(200);
    const again = () =>
      withLedgerTransaction(h.app.pdb, (trx) =>
        recordEvidenceEvent(trx, { kind: 'saved', evidenceId: saved.id, baoquan: saved.baoquan }, t),
      );
    await again();
    expect(await ingestEvents(h.app.pdb, t)).toBe(3);
    expect((await jobs()).map((j) => [j.baoquan, j.lang, j.state])).toEqual([
      [saved.baoquan, 'zh', 'queued'],
    ]);
    const job = await claimRender(h.app.pdb, 'w-1', 60, t);
    await again();
    expect(await ingestEvents(h.app.pdb, t)).toBe(1);
    expect((await jobs()).map((j) => j.state)).toEqual(['active', 'queued']);
    // failing the active one while the next is queued leaves only the next: it renders the certificate
    await failRender(h.app.pdb.db, job!.id, 'w-1', '渲染失败', t);
    const left = await jobs();
    expect(left.map((j) => [j.baoquan, j.state])).toEqual([[saved.baoquan, 'queued']]);
    expect(Number(left[0]!.id)).not.toBe(job!.id);
  });

  it('a job whose worker died is claimed again only after its lease; expired leases count as tries', async () => {
    await fresh();
    const t = nowSeconds();
    const saved = await save();
    const killed = await claimRender(h.app.pdb, 'w-killed', 30, t);
    expect(killed).toMatchObject({ baoquan: saved.baoquan, attempt: 1, leaseUntil: t + 30 });
    // the worker was killed (SIGKILL) mid-render: nothing completes it; nobody gets it while its lease runs
    expect(await claimRender(h.app.pdb, 'w-2', 30, t + 29)).toBeNull();
    expect(await claimRender(h.app.pdb, 'w-2', 30, t + 30)).toBeNull();
    const taken = await claimRender(h.app.pdb, 'w-2', 30, t + 31);
    expect(taken).toEqual({ ...killed, attempt: 2, leaseUntil: t + 61 });
    await expect(completeRender(h.app.pdb.db, killed!.id, 'w-killed')).rejects.toMatchObject({
      httpStatus: 409,
    });
    // every later worker dies too: after RENDER_ATTEMPTS claims the expired job fails for good instead
    let at = t + 31;
    for (let attempt = 3; attempt <= RENDER_ATTEMPTS; attempt++) {
      at += 31;
      expect(await claimRender(h.app.pdb, `w-${attempt}`, 30, at)).toMatchObject({ id: killed!.id, attempt });
    }
    expect(await claimRender(h.app.pdb, 'w-last', 30, at + 31)).toBeNull();
    expect(await jobs()).toMatchObject([
      {
        id: killed!.id,
        state: 'failed',
        last_error: RenderMsg.leaseExpired,
        worker: null,
        lease_until: null,
      },
    ]);
  });

  it('a worker that does not hold the job cannot complete or fail it: 409, the job stays', async () => {
    await fresh();
    await save();
    const job = await claimRender(h.app.pdb, 'w-1', 60, nowSeconds());
    for (const [url, extra] of [
      [RenderPaths.complete, {}],
      [RenderPaths.fail, { error: '别人的任务' }],
    ] as const) {
      const res = await internal(url, { id: job!.id, worker: 'w-other', ...extra });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ msg: RenderMsg.notHeld, data: null });
    }
    const missing = await internal(RenderPaths.complete, { id: job!.id + 1000, worker: 'w-1' });
    expect(missing.statusCode).toBe(409);
    expect(await jobs()).toMatchObject([{ id: job!.id, state: 'active', worker: 'w-1', attempts: 1 }]);
    const done = await internal(RenderPaths.complete, { id: job!.id, worker: 'w-1' });
    expect([done.statusCode, done.json().code, done.json().data]).toEqual([200, ApiCode.OK, null]);
    expect(await jobs()).toEqual([]);
    // completed twice: no longer held
    expect((await internal(RenderPaths.complete, { id: job!.id, worker: 'w-1' })).statusCode).toBe(409);
  });

  it('a failing render is retried with a doubling delay and fails for good after RENDER_ATTEMPTS tries', async () => {
    await fresh();
    const saved = await save();
    let t = nowSeconds();
    for (let attempt = 1; attempt <= RENDER_ATTEMPTS; attempt++) {
      const job = await claimRender(h.app.pdb, 'w-1', 60, t);
      expect(job).toMatchObject({ baoquan: saved.baoquan, attempt });
      await failRender(h.app.pdb.db, job!.id, 'w-1', `打印超时 ${attempt}`, t + 5);
      const [row] = await jobs();
      if (attempt < RENDER_ATTEMPTS) {
        const delay = Math.min(600, 10 * 2 ** (attempt - 1));
        expect(retryDelaySeconds(attempt)).toBe(delay);
        expect(row).toMatchObject({
          state: 'queued',
          run_at: t + 5 + delay,
          worker: null,
          lease_until: null,
        });
        expect(await claimRender(h.app.pdb, 'w-1', 60, t + 5 + delay - 1)).toBeNull();
        t += 5 + delay;
      } else {
        expect(row).toMatchObject({
          state: 'failed',
          attempts: RENDER_ATTEMPTS,
          last_error: `打印超时 ${attempt}`,
        });
      }
    }
    expect(await claimRender(h.app.pdb, 'w-1', 60, t + 3600)).toBeNull();
    expect(await renderStats(h.app.pdb.db, t + 5)).toEqual({
      name: 'certificate.render',
      queued: 0,
      active: 0,
      failed: 1,
      lastError: `打印超时 ${RENDER_ATTEMPTS}`,
      oldestWaitSeconds: null,
    });
    // a week later it is pruned; not before
    expect(await pruneRenders(h.app.pdb.db, t + 5 + FAILED_RENDER_RETENTION_SECONDS)).toBe(0);
    expect(await pruneRenders(h.app.pdb.db, t + 6 + FAILED_RENDER_RETENTION_SECONDS)).toBe(1);
    expect(await jobs()).toEqual([]);
  });

  it("the operators' jobs call and the metrics show the worker's jobs", async () => {
    await fresh();
    const t = nowSeconds();
    await save();
    await ingestEvents(h.app.pdb, t - 12);
    const failed = await save();
    await ingestEvents(h.app.pdb, t);
    await h.app.pdb.db
      .updateTable('render_jobs')
      .set({ state: 'failed', attempts: RENDER_ATTEMPTS, last_error: '证书页面无法打开' })
      .where('baoquan', '=', failed.baoquan)
      .execute();
    // saved, but no worker has claimed since: waiting all the same
    await save();
    const capture = (
      status: 'queued' | 'running' | 'failed' | 'done',
      at: number,
      error: string | null = null,
    ) => ({
      user_id: demoId,
      kind: 'web' as const,
      title: '统计',
      label: '',
      urls_json: '["https://example.com/"]',
      status,
      error,
      created_at: at,
      updated_at: at,
    });
    const week = 7 * 24 * 3600;
    await h.app.pdb.db.deleteFrom('capture_jobs').execute();
    await h.app.pdb.db
      .insertInto('capture_jobs')
      .values([
        capture('queued', t - 30),
        capture('queued', t - 5),
        capture('running', t - 3),
        capture('done', t - 100),
        capture('failed', t - 60, '页面加载超时'),
        capture('failed', t - week - 60, '一周前的失败'),
      ])
      .execute();
    const admin = await operatorToken(h, `render-admin-${h.dialect}`, 'admin');
    const r = await get<JobsView>(h.app, JobsOpsPaths.jobs, {}, admin);
    expect(r.code).toBe(200);
    expect(r.data.kind).toBeNull(); // PLATFORM_JOBS=0: the worker's jobs are read all the same
    const [renders, captures] = r.data.work;
    expect(renders).toMatchObject({ name: 'certificate.render', queued: 2, active: 0, failed: 1 });
    expect(renders!.lastError).toBe('证书页面无法打开');
    expect(renders!.oldestWaitSeconds).toBeGreaterThanOrEqual(12);
    expect(captures).toMatchObject({
      name: 'capture',
      queued: 2,
      active: 1,
      failed: 1,
      lastError: '页面加载超时',
    });
    expect(captures!.oldestWaitSeconds).toBeGreaterThanOrEqual(30);

    const metrics = await h.app.inject({
      url: PLATFORM_METRICS_PATH,
      headers: { 'x-internal-key': h.app.internalKey },
    });
    expect(metrics.body).toMatch(/^cunzheng_worker_jobs\{job="certificate\.render",state="queued"\} 2$/m);
    expect(metrics.body).toMatch(/^cunzheng_worker_jobs\{job="certificate\.render",state="failed"\} 1$/m);
    expect(metrics.body).toMatch(/^cunzheng_worker_jobs\{job="capture",state="active"\} 1$/m);
    expect(metrics.body).toMatch(/^cunzheng_worker_job_oldest_wait_seconds\{job="capture"\} (3\d|[4-9]\d)$/m);
    await h.app.pdb.db.deleteFrom('capture_jobs').execute();
  });

  describe('two claimers on two database handles', () => {
    let second: PlatformDb;
    beforeAll(() => {
      second = openDatabase(h.config.database);
    });
    afterAll(async () => {
      await second?.close();
    });

    // On PostgreSQL both also ingest the events at once. On SQLite both handles live in this one thread, where a
    // handle waiting for the file's write lock blocks the thread that holds it: there the events are ingested first.
    it('never get the same job and together get all 20', async () => {
      await fresh();
      const t = nowSeconds();
      const saved: string[] = [];
      for (let i = 0; i < 20; i++) saved.push((await save()).baoquan);
      if (h.dialect === 'sqlite') expect(await ingestEvents(h.app.pdb, t)).toBe(20);
      // both handles connected before the race starts
      for (const pdb of [h.app.pdb, second]) await pdb.db.selectFrom('render_jobs').select('id').execute();
      const got: ClaimedRender[][] = [[], []];
      const claimer = async (pdb: PlatformDb, worker: string, into: ClaimedRender[]) => {
        for (;;) {
          const job = await claimRender(pdb, worker, 60, t);
          if (!job) return;
          into.push(job);
          await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all([claimer(h.app.pdb, 'w-a', got[0]!), claimer(second, 'w-b', got[1]!)]);
      const all = [...got[0]!, ...got[1]!];
      expect(new Set(all.map((j) => j.id)).size).toBe(20);
      expect(all.map((j) => j.baoquan).sort()).toEqual([...saved].sort());
      for (const list of got) expect(list.length).toBeGreaterThan(0);
      const rows = await jobs();
      expect(rows).toHaveLength(20);
      for (const row of rows) {
        const holder = got[0]!.some((j) => j.id === Number(row.id)) ? 'w-a' : 'w-b';
        expect([row.state, row.worker, Number(row.attempts)]).toEqual(['active', holder, 1]);
      }
    });
  });

  it('the internal calls want the key and well-formed bodies', async () => {
    await fresh();
    const saved = await save();
    for (const url of [RenderPaths.claim, RenderPaths.complete, RenderPaths.fail]) {
      for (const key of [null, 'wrong']) {
        const res = await internal(url, { worker: 'w-1', leaseSeconds: 60, id: 1, error: 'x' }, key);
        expect([res.statusCode, res.json().code]).toEqual([403, ApiCode.FORBIDDEN]);
      }
    }
    const bad: [string, Record<string, unknown>][] = [
      [RenderPaths.claim, { worker: 'w 1', leaseSeconds: 60 }],
      [RenderPaths.claim, { worker: 'w-1', leaseSeconds: 5 }],
      [RenderPaths.claim, { worker: 'w-1', leaseSeconds: 601 }],
      [RenderPaths.complete, { id: 0, worker: 'w-1' }],
      [RenderPaths.complete, { worker: 'w-1' }],
      [RenderPaths.fail, { id: 1, worker: 'w-1' }],
      [RenderPaths.fail, { id: 1, worker: 'w-1', error: 'x'.repeat(501) }],
    ];
    for (const [url, body] of bad) {
      const res = await internal(url, body);
      expect([url, res.json().code]).toEqual([url, ApiCode.BAD_REQUEST]);
    }
    expect(await jobs()).toEqual([]); // a refused claim ingests nothing
    const claimed = await internal(RenderPaths.claim, { worker: 'w-1', leaseSeconds: 60 });
    expect(claimed.json()).toMatchObject({
      code: ApiCode.OK,
      data: { baoquan: saved.baoquan, lang: 'zh', attempt: 1 },
    });
    const id = (claimed.json().data as ClaimedRender).id;
    const failed = await internal(RenderPaths.fail, { id, worker: 'w-1', error: '浏览器崩溃' });
    expect([failed.statusCode, failed.json().code]).toEqual([200, ApiCode.OK]);
    expect(await jobs()).toMatchObject([{ id, state: 'queued', last_error: '浏览器崩溃' }]);
    const none = await internal(RenderPaths.claim, { worker: 'w-1', leaseSeconds: 60 });
    expect(none.json()).toMatchObject({ code: ApiCode.OK, data: null });
  });

  it('migration 0029 creates render_jobs, one queued job per certificate, and drops it again', async () => {
    await withScratchDatabase(h, async (pdb, migrator) => {
      expect((await migrator.migrateTo('0029_render_jobs')).error).toBeUndefined();
      const row = (state: string, worker: string | null = null) => ({
        baoquan: 'BQ1',
        lang: 'zh' as const,
        state: state as 'queued',
        run_at: 1,
        worker,
        created_at: 1,
        updated_at: 1,
      });
      await pdb.db
        .insertInto('render_jobs')
        .values([row('queued'), row('active', 'w'), row('failed')])
        .execute();
      await expect(pdb.db.insertInto('render_jobs').values(row('queued')).execute()).rejects.toThrow();
      await pdb.db
        .insertInto('render_jobs')
        .values({ ...row('queued'), lang: 'en' })
        .execute();
      expect(await pdb.db.selectFrom('render_jobs').select('attempts').execute()).toHaveLength(4);
      expect((await migrator.migrateTo('0028_promo_codes')).error).toBeUndefined();
      const tables = (await pdb.db.introspection.getTables()).map((t) => t.name);
      expect(tables).not.toContain('render_jobs');
      expect(tables).toContain('promo_codes');
    });
  });
});
