/**
 * Failed uploads leave nothing behind (docs/decisions/002-platform.md): a request cut off mid-stream against
 * a real listening server, and an upload over MAX_UPLOAD_BYTES, leave no evidence row, no ledger entry and no
 * file in tmp/ or evidence/.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { forEachDialect, login, upload, type PlatformHarness } from '../../tests/support/platform.ts';

const LIMIT = 1024 * 1024; // 1 MiB for these suites

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function counts(h: PlatformHarness) {
  const db = h.app.pdb.db;
  const ev = await db
    .selectFrom('evidences')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const le = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    evidences: Number(ev.n),
    ledger: Number(le.n),
    tmp: await filesUnder(path.join(h.dataDir, 'tmp')),
    stored: await filesUnder(path.join(h.dataDir, 'evidence')),
  };
}

forEachDialect(
  'failed uploads',
  (h) => {
    let token: string;
    let base: { host: string; port: number };
    beforeAll(async () => {
      token = await login(h.app, DEMO_MOBILE, 'demo1234');
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = h.app.server.address() as AddressInfo;
      base = { host: '127.0.0.1', port: addr.port };
    });
    afterAll(async () => {
      // app.close() in the harness stops the listener
    });

    it('a file exactly at the limit is accepted; one byte more is refused with 413 and leaves nothing', async () => {
      const okRes = await upload<SaveEvidenceData>(h.app, token, randomBytes(LIMIT), 'at-limit.bin');
      expect(okRes.code).toBe(200);
      const before = await counts(h);
      const res = await upload(h.app, token, randomBytes(LIMIT + 1), 'over.bin');
      expect(res).toMatchObject({ status: 200, code: 413, msg: Msg.fileTooLarge(LIMIT), data: null });
      expect(Msg.fileTooLarge(LIMIT)).toBe('文件大小不能超过1MB');
      expect(await counts(h)).toEqual(before);
      expect(before.tmp).toEqual([]);
    });

    it('an oversize upload over a real connection gets the 413 envelope and leaves nothing', async () => {
      const before = await counts(h);
      const boundary = 'czoversize';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const body = Buffer.concat([head, randomBytes(8 * LIMIT), tail]);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            ...base,
            method: 'POST',
            path: EvidencePaths.save,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': body.length,
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ code: 413, msg: Msg.fileTooLarge(LIMIT), data: null });
      await waitFor('temp files to go', async () => (await counts(h)).tmp.length === 0);
      expect(await counts(h)).toEqual(before);
    });

    it('an upload cut off mid-stream leaves no row and no file', async () => {
      const before = await counts(h);
      const boundary = 'czabort';
      const req = http.request({
        ...base,
        method: 'POST',
        path: EvidencePaths.save,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      const errors: Error[] = [];
      req.on('error', (e) => errors.push(e));
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n半截上传\r\n`);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      );
      for (let i = 0; i < 4; i++) req.write(randomBytes(64 * 1024));
      // the server is really streaming this upload into a temp file (created when the file part begins; its bytes
      // land a megabyte at a time, files/direct-io.ts)…
      await waitFor('the temp file', async () => (await counts(h)).tmp.length === 1);
      // …when the client goes away mid-file
      req.destroy();
      await waitFor('the temp file to be removed', async () => (await counts(h)).tmp.length === 0);
      // give a (wrong) late commit a moment to show up before checking
      await new Promise((r) => setTimeout(r, 200));
      expect(await counts(h)).toEqual(before);
    });

    it('the platform still serves uploads afterwards', async () => {
      const r = await upload<SaveEvidenceData>(h.app, token, Buffer.from('after the failures'), 'after.txt');
      expect(r.code).toBe(200);
    });
  },
  { MAX_UPLOAD_BYTES: String(LIMIT) },
);
