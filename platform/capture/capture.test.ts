/**
 * Capture jobs (decision 037; contract/capture.ts) on SQLite and PostgreSQL: a verified user queues web captures (bad
 * URLs and too many open jobs refused with the contract's messages); workers claim the oldest job with a lease, one
 * worker per job even when two claim at once; a lease that passed lets another worker take the job (the first one's
 * completion is then refused, 409), and after MAX_CAPTURE_ATTEMPTS interrupted claims the job fails; completing with
 * a WACZ makes the owner's evidence of kind `web` with its ledger entry, failing records the reason; the internal
 * calls need the internal key, and nobody but the owner reads a job.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import {
  CaptureMsg,
  CapturePaths,
  MAX_CAPTURE_ATTEMPTS,
  type CaptureJobView,
  type CaptureVideoData,
  type ClaimedCaptureJob,
} from '../../contract/capture.ts';
import { EvidencePaths, type EvidenceListData, type EvidenceView } from '../../contract/evidence.ts';
import { ZipArchive } from 'archiver';
import { LedgerPaths, type ProofBundle } from '../../contract/ledger.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { call, forEachDialect, get, login, multipart, post } from '../../tests/support/platform.ts';
import { userFactory } from '../../tests/support/account.ts';
import { claimCapture } from './worker-jobs.ts';

forEachDialect('capture jobs', (h) => {
  const newUser = userFactory(h);
  let token: string;
  const internal = () => ({ 'x-internal-key': h.app.internalKey });
  const claim = (worker: string, leaseSeconds = 60) =>
    call<ClaimedCaptureJob | null>(h.app, {
      method: 'POST',
      url: CapturePaths.claim,
      headers: internal(),
      payload: { worker, leaseSeconds },
    });
  const complete = (jobId: number, worker: string, wacz: Buffer, meta: object = { pages: 1 }) => {
    const body = multipart(
      { jobId: String(jobId), worker, meta: JSON.stringify(meta) },
      { data: wacz, filename: 'capture.wacz', field: 'wacz', contentType: 'application/zip' },
    );
    return call<CaptureJobView>(h.app, {
      method: 'POST',
      url: CapturePaths.complete,
      headers: { ...body.headers, ...internal() },
      payload: body.payload,
    });
  };
  const fail = (jobId: number, worker: string, error: string) =>
    call<CaptureJobView>(h.app, {
      method: 'POST',
      url: CapturePaths.fail,
      headers: internal(),
      payload: { jobId, worker, error },
    });
  /** Fails every open job of the demo user, so each test starts with none. */
  const drain = async () => {
    for (let c = (await claim('drainer')).data; c; c = (await claim('drainer')).data)
      await fail(c.id, 'drainer', '测试清理');
  };

  beforeAll(async () => {
    token = await login(h.app, DEMO_MOBILE, 'demo1234');
  });

  it('queues valid URLs and refuses bad ones and a third open job', async () => {
    await drain();
    const bad = await post(h.app, CapturePaths.createWeb, { urls: 'ftp://example.com/x' }, token);
    expect(bad.msg).toBe(CaptureMsg.urlScheme);
    expect((await post(h.app, CapturePaths.createWeb, { urls: 'not a url' }, token)).msg).toBe(
      CaptureMsg.urlInvalid('not a url'),
    );
    expect((await post(h.app, CapturePaths.createWeb, { urls: '' }, token)).msg).toBe(CaptureMsg.urlRequired);
    const many = Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`).join('\n');
    expect((await post(h.app, CapturePaths.createWeb, { urls: many }, token)).msg).toBe(
      CaptureMsg.tooManyUrls,
    );

    const first = await post<CaptureJobView>(
      h.app,
      CapturePaths.createWeb,
      { urls: 'https://example.com/a\r\nhttps://example.com/b', label: '网页' },
      token,
      true,
    );
    expect(first.code).toBe(200);
    expect(first.data).toMatchObject({
      status: 'queued',
      title: 'example.com',
      label: '网页',
      urls: ['https://example.com/a', 'https://example.com/b'],
      baoquan: null,
    });
    expect((await post(h.app, CapturePaths.createWeb, { urls: ['https://example.org/'] }, token)).code).toBe(
      200,
    );
    const third = await post(h.app, CapturePaths.createWeb, { urls: ['https://example.net/'] }, token);
    expect(third.msg).toBe(CaptureMsg.tooManyOpen);
    const mine = await get<CaptureJobView[]>(h.app, CapturePaths.jobs, {}, token);
    expect(mine.data.slice(0, 2).map((j) => j.urls[0])).toEqual([
      'https://example.org/',
      'https://example.com/a',
    ]);
    await drain();
  });

  it('queues a process script whose first step opens a URL, and refuses bad steps', async () => {
    await drain();
    const notFirst = await post(
      h.app,
      CapturePaths.createProcess,
      { steps: [{ action: 'screenshot' }] },
      token,
    );
    expect(notFirst.msg).toBe('第一步须为“打开网址”');
    const badWait = await post(
      h.app,
      CapturePaths.createProcess,
      {
        steps: [
          { action: 'visit', value: 'https://example.com/' },
          { action: 'wait', value: '99' },
        ],
      },
      token,
    );
    expect(badWait.msg).toBe('等待时间须为 1–30 秒');
    const job = await post<CaptureJobView>(
      h.app,
      CapturePaths.createProcess,
      {
        steps: [
          { action: 'visit', value: 'https://example.com/' },
          { action: 'type', value: '#q', text: '存证' },
          { action: 'click', value: '搜索' },
          { action: 'scroll', value: '' },
          { action: 'screenshot' },
        ],
      },
      token,
    );
    expect(job.data).toMatchObject({ kind: 'process', status: 'queued', urls: ['https://example.com/'] });
    const processes = await get<CaptureJobView[]>(h.app, CapturePaths.jobs, { kind: 'process' }, token);
    expect(processes.data.map((j) => j.kind)).toEqual(processes.data.map(() => 'process'));
    expect(processes.data[0]!.id).toBe(job.data.id);
    const claimed = (await claim('gw')).data;
    expect(claimed?.steps).toEqual([
      { action: 'visit', url: 'https://example.com/' },
      { action: 'type', target: '#q', text: '存证' },
      { action: 'click', target: '搜索' },
      { action: 'scroll', pixels: 600 },
      { action: 'screenshot' },
    ]);
    await fail(claimed!.id, 'gw', '测试');
  });

  it('lets one worker hold a job; completing makes web evidence with its ledger entry', async () => {
    await drain();
    const job = (
      await post<CaptureJobView>(h.app, CapturePaths.createWeb, { urls: ['https://example.com/'] }, token)
    ).data;
    const [a, b] = await Promise.all([claim('gw-a'), claim('gw-b')]);
    const claims = [a.data, b.data].filter((c) => c !== null);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({
      id: job.id,
      kind: 'web',
      urls: ['https://example.com/'],
      steps: [],
      attempt: 1,
    });
    const holder = a.data ? 'gw-a' : 'gw-b';
    const other = a.data ? 'gw-b' : 'gw-a';

    const wacz = randomBytes(5000);
    expect((await complete(job.id, other, wacz)).status).toBe(409);
    const done = await complete(job.id, holder, wacz);
    expect(done.code).toBe(200);
    expect(done.data.status).toBe('done');
    expect(done.data.baoquan).toMatch(/^BQ/);

    const list = await get<EvidenceListData>(h.app, EvidencePaths.list, { v: 'web' }, token);
    expect(list.data.list.map((e) => e.baoquan)).toContain(done.data.baoquan);
    const proof = await get<ProofBundle>(h.app, LedgerPaths.proof, { baoquan: done.data.baoquan! });
    expect(proof.data.record).toMatchObject({
      kind: 'web',
      sha256: createHash('sha256').update(wacz).digest('hex'),
      size: 5000,
    });
    expect((await complete(job.id, holder, wacz)).status).toBe(409);
  });

  it('takes a job back from a worker whose lease passed, and fails it after too many interruptions', async () => {
    await drain();
    const job = (
      await post<CaptureJobView>(h.app, CapturePaths.createWeb, { urls: ['https://example.com/'] }, token)
    ).data;
    const now = Math.floor(Date.now() / 1000);
    expect((await claimCapture(h.app.pdb, 'dies-1', 10, now))?.id).toBe(job.id);
    expect(await claimCapture(h.app.pdb, 'waits', 10, now + 5)).toBeNull();
    // the lease passed: another worker takes it over, and the first one's answer is refused
    for (let attempt = 2; attempt <= MAX_CAPTURE_ATTEMPTS; attempt++) {
      const again = await claimCapture(h.app.pdb, `dies-${attempt}`, 10, now + 11 * (attempt - 1));
      expect(again).toMatchObject({ id: job.id, attempt });
    }
    expect((await fail(job.id, 'dies-1', '迟到')).status).toBe(409);
    expect(await claimCapture(h.app.pdb, 'late', 10, now + 11 * MAX_CAPTURE_ATTEMPTS)).toBeNull();
    const ended = await get<CaptureJobView>(h.app, CapturePaths.job, { id: job.id }, token);
    expect(ended.data).toMatchObject({ status: 'failed', error: CaptureMsg.interrupted });
  });

  it('records a failure for the owner; internal calls need the internal key', async () => {
    await drain();
    const job = (
      await post<CaptureJobView>(h.app, CapturePaths.createWeb, { urls: ['https://example.com/'] }, token)
    ).data;
    const open = await call(h.app, {
      method: 'POST',
      url: CapturePaths.claim,
      payload: { worker: 'x', leaseSeconds: 60 },
    });
    expect(open.status).toBe(403);
    expect((await claim('gw')).data?.id).toBe(job.id);
    const failed = await fail(job.id, 'gw', '目标地址 10.0.0.1 属于内网地址，不允许取证访问');
    expect(failed.data).toMatchObject({
      status: 'failed',
      error: '目标地址 10.0.0.1 属于内网地址，不允许取证访问',
    });
    // another user sees nothing of it
    const stranger = await newUser();
    const theirs = await get(h.app, CapturePaths.job, { id: job.id }, stranger.token);
    expect([theirs.code, theirs.msg]).toEqual([404, CaptureMsg.jobMissing]);
  });

  it('serves the screenshots of a capture to the certificate and its video to the owner, from the stored WACZ', async () => {
    await drain();
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(3000)]);
    const webm = randomBytes(70_000);
    const wacz = await zipOf({
      'capture/step-1.png': png,
      'capture/process.webm': webm,
      'datapackage.json': '{}',
    });
    const job = (
      await post<CaptureJobView>(
        h.app,
        CapturePaths.createProcess,
        { steps: [{ action: 'visit', value: 'https://example.com/' }] },
        token,
      )
    ).data;
    await claim('gw');
    const meta = {
      steps: [{ n: 1, action: 'visit', ok: true, screenshot: 'capture/step-1.png' }],
      video: 'capture/process.webm',
    };
    const done = (await complete(job.id, 'gw', wacz, meta)).data;
    const baoquan = done.baoquan!;
    const view = await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan }, token);
    expect(view.data.capture).toEqual({ shots: 1, video: true });

    const shot = await h.app.inject({ method: 'GET', url: `/api/capture/shot/${baoquan}/1` });
    expect([shot.statusCode, shot.headers['content-type']]).toEqual([200, 'image/png']);
    expect(shot.rawPayload.equals(png)).toBe(true);
    for (const n of ['2', '0', 'x']) {
      expect(
        (await h.app.inject({ method: 'GET', url: `/api/capture/shot/${baoquan}/${n}` })).statusCode,
      ).toBe(404);
    }

    const stranger = await newUser();
    const theirs = await get(h.app, CapturePaths.videoUrl, { baoquan }, stranger.token);
    expect(theirs.code).toBe(404);
    const mine = await get<CaptureVideoData>(h.app, CapturePaths.videoUrl, { baoquan }, token);
    const video = await h.app.inject({ method: 'GET', url: mine.data.url });
    expect([video.statusCode, video.headers['content-type']]).toEqual([200, 'video/webm']);
    expect(video.rawPayload.equals(webm)).toBe(true);
    // one hex digit of the signature changed (to another digit whatever it was)
    const forgedUrl = mine.data.url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    const forged = await h.app.inject({ method: 'GET', url: forgedUrl });
    expect(forged.statusCode).toBe(403);

    // once the data is deleted, neither is served and the certificate shows no screenshots
    expect((await post(h.app, EvidencePaths.delData, { dataId: view.data.id }, token)).code).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: `/api/capture/shot/${baoquan}/1` })).statusCode).toBe(
      404,
    );
    expect((await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan })).data.capture).toBeNull();
  });
});

/** A ZIP of `entries` (deflated, as the worker's WACZ is). */
async function zipOf(entries: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  for (const [name, data] of Object.entries(entries)) zip.append(data, { name });
  await zip.finalize();
  await ended;
  return Buffer.concat(chunks);
}
