/**
 * Proves (spec 01 §2.2; decision 002): an upload cut off mid-stream leaves no evidence row and no stray file
 * — both through the gateway's `/api/data/save` proxy (bearer token) and through the upload page's action
 * (`POST /newAccessCard`, session cookie from the real login form), which forwards the multipart stream to
 * the platform. The whole process runs for real: embedded platform, gateway, production UI build; the socket
 * is destroyed only once the platform is holding a partial temp file, so the test knows the cut happened
 * mid-stream.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  cutOffUpload,
  evidenceCount,
  filesUnder,
  multipart,
  partialTempUploads,
  startWhole,
  uploadCsrf,
  waitFor,
  webLogin,
  type Whole,
} from '../support/integration.ts';

const FILE_BYTES = 8 * 1024 * 1024;

describe.sequential('a cut-off upload leaves nothing', () => {
  let whole: Whole;
  let token: string;
  const file = randomBytes(FILE_BYTES);

  // A browser that drops an upload must not crash the process: an 'error' without a listener on the raw request
  // would surface here (the monitor observes without changing what Node does).
  const uncaught: Error[] = [];
  const monitor = (err: Error) => uncaught.push(err);

  beforeAll(async () => {
    process.on('uncaughtExceptionMonitor', monitor);
    whole = await startWhole();
    token = await apiLogin(whole.base);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    await whole?.stop();
  });

  /** Waits until the platform has dropped the partial upload, then asserts that nothing of it is left. */
  async function expectNothingLeft(countBefore: number): Promise<void> {
    const tmp = path.join(whole.dataDir, 'tmp');
    const evidence = path.join(whole.dataDir, 'evidence');
    const cleaned = await waitFor(
      () => filesUnder(tmp).length === 0 && filesUnder(evidence).length === 0,
      5000,
    );
    expect(cleaned, `left behind: tmp ${filesUnder(tmp)}, evidence ${filesUnder(evidence)}`).toBe(true);
    // Nothing may turn up late either.
    await new Promise((r) => setTimeout(r, 300));
    expect(filesUnder(tmp)).toEqual([]);
    expect(filesUnder(evidence)).toEqual([]);
    expect(await evidenceCount(whole.base, token)).toBe(countBefore);
    expect(uncaught.map((e) => `${e.message} ${(e as NodeJS.ErrnoException).code ?? ''}`)).toEqual([]);
    // The process is unharmed and still takes uploads' neighbours.
    const health = await fetch(`${whole.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  }

  it('through the /api/data/save proxy', async () => {
    const before = await evidenceCount(whole.base, token);
    const cut = await cutOffUpload(`${whole.base}/api/data/save`, {
      headers: { authorization: `Bearer ${token}` },
      form: multipart({ title: 'cut off via api', label: 'cut' }, 'cut-api.bin'),
      file,
      sendBytes: FILE_BYTES / 2,
      ready: () => partialTempUploads(whole.dataDir).length > 0,
    });
    expect(cut.sawPartial, 'the platform should be holding a partial temp file before the cut').toBe(true);
    expect(cut.answeredEarly).toBe(false);
    await expectNothingLeft(before);
  });

  it('through the upload page action POST /newAccessCard', async () => {
    const jar = await webLogin(whole.base);
    const csrf = await uploadCsrf(whole.base, jar);
    const before = await evidenceCount(whole.base, token);
    const cut = await cutOffUpload(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
      headers: { cookie: jar.header() },
      form: multipart({ title: 'cut off via page', label: 'cut' }, 'cut-page.bin'),
      file,
      sendBytes: FILE_BYTES / 2,
      ready: () => partialTempUploads(whole.dataDir).length > 0,
    });
    expect(cut.sawPartial, 'the platform should be holding a partial temp file before the cut').toBe(true);
    expect(cut.answeredEarly).toBe(false);
    await expectNothingLeft(before);
    // The session still works after the aborted request: the page renders.
    const page = await fetch(`${whole.base}/newAccessCard`, { headers: { cookie: jar.header() } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('文件保全');
  });
});
