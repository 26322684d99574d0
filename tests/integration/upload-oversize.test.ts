/**
 * Proves (spec 01 §2.2, §8): an upload larger than MAX_UPLOAD_BYTES is refused with the spec's message and
 * leaves no evidence row and no stray file — through the `/api/data/save` proxy (declared Content-Length and
 * chunked, so the platform's streaming limit itself is exercised) and through the upload page (the gateway's
 * early Content-Length check, and the platform's limit behind a chunked body). A file of exactly the limit is
 * accepted, so the refusals are the limit at work and not a broken upload path.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import {
  apiLogin,
  evidenceCount,
  filesUnder,
  multipart,
  postMultipart,
  startWhole,
  uploadCsrf,
  waitFor,
  webLogin,
  type CookieJar,
  type Envelope,
  type Whole,
} from '../support/integration.ts';

const LIMIT = 1024 * 1024;
const TOO_LARGE = Msg.fileTooLarge(LIMIT);

describe.sequential('an upload over MAX_UPLOAD_BYTES', () => {
  let whole: Whole;
  let token: string;
  let jar: CookieJar;
  const big = randomBytes(3 * LIMIT);

  beforeAll(async () => {
    whole = await startWhole({ MAX_UPLOAD_BYTES: String(LIMIT) });
    token = await apiLogin(whole.base);
    jar = await webLogin(whole.base);
  });
  afterAll(async () => {
    await whole?.stop();
  });

  /** No row, nothing in tmp or evidence (after the platform had its chance to clean up). */
  async function expectNothingKept(): Promise<void> {
    const tmp = path.join(whole.dataDir, 'tmp');
    const evidence = path.join(whole.dataDir, 'evidence');
    const clean = () => filesUnder(tmp).length === 0 && filesUnder(evidence).length === 0;
    expect(await waitFor(clean, 5000), `tmp ${filesUnder(tmp)}, evidence ${filesUnder(evidence)}`).toBe(true);
    expect(await evidenceCount(whole.base, token)).toBe(0);
  }

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('through /api/data/save %s: envelope 413 with the message', async (_name, chunked) => {
    const answer = await postMultipart(`${whole.base}/api/data/save`, {
      headers: { authorization: `Bearer ${token}` },
      form: multipart({ title: 'too large' }, 'big.bin'),
      file: big,
      chunked,
    });
    expect(answer.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(answer.body) as Envelope).toEqual({ code: 413, msg: TOO_LARGE, data: null });
    await expectNothingKept();
  });

  it('through POST /newAccessCard with Content-Length: the page shows the message (gateway check)', async () => {
    const csrf = await uploadCsrf(whole.base, jar);
    const answer = await postMultipart(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
      headers: { cookie: jar.header() },
      form: multipart({ title: 'too large' }, 'big.bin'),
      file: big,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(answer.body).toContain(TOO_LARGE);
    await expectNothingKept();
  });

  it('through POST /newAccessCard chunked: the page shows the platform’s message', async () => {
    const csrf = await uploadCsrf(whole.base, jar);
    const answer = await postMultipart(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
      headers: { cookie: jar.header() },
      form: multipart({ title: 'too large' }, 'big.bin'),
      file: big,
      chunked: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(answer.body).toContain(TOO_LARGE);
    await expectNothingKept();
  });

  it('one byte over the limit is refused, exactly the limit is kept', async () => {
    const over = await postMultipart(`${whole.base}/api/data/save`, {
      headers: { authorization: `Bearer ${token}` },
      form: multipart({}, 'over.bin'),
      file: randomBytes(LIMIT + 1),
    });
    expect((JSON.parse(over.body) as Envelope).code).toBe(413);
    await expectNothingKept();

    const exact = randomBytes(LIMIT);
    const ok = await postMultipart(`${whole.base}/api/data/save`, {
      headers: { authorization: `Bearer ${token}` },
      form: multipart({}, 'exact.bin'),
      file: exact,
    });
    const env = JSON.parse(ok.body) as Envelope<{ filehash: string }>;
    expect(env.code, env.msg).toBe(200);
    expect(env.data.filehash).toBe(createHash('sha256').update(exact).digest('hex'));
    expect(await evidenceCount(whole.base, token)).toBe(1);
    expect(filesUnder(path.join(whole.dataDir, 'evidence'))).toHaveLength(1);
    expect(filesUnder(path.join(whole.dataDir, 'tmp'))).toEqual([]);
  });
});
