/**
 * Object storage in an S3-compatible store (decision 040), against a local s3rver: the bucket contract of
 * files/storage.ts — a streamed put hashed on the way (multi-part for a 20 MiB file), size, whole and ranged reads,
 * delete — a failed upload leaving no object, and the platform itself storing and serving an evidence there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadData, EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import { buildPlatform } from '../app.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { get, login, post, testConfig, upload } from '../../tests/support/platform.ts';
import { storageConfig } from '../config-storage.ts';
import { S3FileStorage } from './s3-storage.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const bytesOf = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('S3FileStorage', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let storage: S3FileStorage;
  beforeAll(async () => {
    s3 = await startS3();
    storage = new S3FileStorage(s3.config);
  });
  afterAll(async () => {
    storage?.destroy();
    await s3?.stop();
  });

  it('puts while hashing, sizes, reads whole and by range, deletes', async () => {
    const bucket = storage.bucket('evidence');
    const big = randomBytes(20 * 1024 * 1024 + 5);
    const stored = await bucket.put(
      'ab/bigobject01',
      Readable.from([big.subarray(0, 7_000_000), big.subarray(7_000_000)]),
    );
    expect(stored).toEqual({ size: big.length, sha256: sha(big) });
    expect(await bucket.size('ab/bigobject01')).toBe(big.length);
    expect(sha(await bytesOf(bucket.get('ab/bigobject01')))).toBe(sha(big));
    expect(
      (await bytesOf(bucket.get('ab/bigobject01', { start: 10, end: 19 }))).equals(big.subarray(10, 20)),
    ).toBe(true);
    await bucket.delete('ab/bigobject01');
    expect(await bucket.size('ab/bigobject01')).toBeNull();
    await expect(text(bucket.get('ab/bigobject01'))).rejects.toThrow();
    expect(() => bucket.get('../../etc/passwd')).toThrow(/invalid storage key/);
  });

  it('leaves no object when the source fails midway', async () => {
    const bucket = storage.bucket('kyc');
    // past the first 8 MiB part, so the multipart upload has begun when the source fails
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent >= 12 * 1024 * 1024) return void this.destroy(new Error('client went away'));
        sent += 3 * 1024 * 1024;
        this.push(randomBytes(3 * 1024 * 1024));
      },
    });
    await expect(bucket.put('cd/brokenupload', failing)).rejects.toThrow();
    expect(await bucket.size('cd/brokenupload')).toBeNull();
  });

  it('holds the evidence the platform saves and serves', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-s3-platform-'));
    // configured the way an operator does it: STORAGE_URL and S3_* (platform/config-storage.ts)
    const c = s3.config;
    const env = s3.env('platform-test');
    const app = await buildPlatform(testConfig(dataDir, undefined, env), { logger: false });
    try {
      const token = await login(app, '13800138000', 'demo1234');
      const file = randomBytes(300_000);
      const saved = await upload<{ baoquan: string }>(app, token, file, 'scan.bin', { title: '对象存储' });
      expect(saved.code).toBe(200);
      const view = await get<EvidenceView>(app, EvidencePaths.view, { baoquan: saved.data.baoquan }, token);
      expect([view.data.filehash, view.data.isDownload]).toEqual([sha(file), 1]);
      const links = await post<DownloadData>(
        app,
        EvidencePaths.ownerDownload,
        { dataId: view.data.id },
        token,
      );
      const down = await app.inject({ method: 'GET', url: links.data.downUrl });
      expect([down.statusCode, sha(down.rawPayload)]).toEqual([200, sha(file)]);
      // stored under the configured prefix of the bucket
      const row = await app.pdb.db
        .selectFrom('evidences')
        .select('storage_key')
        .where('baoquan', '=', saved.data.baoquan)
        .executeTakeFirstOrThrow();
      const listed = new S3FileStorage({ ...c, prefix: 'platform-test/' });
      expect(await listed.bucket('evidence').size(row.storage_key)).toBe(file.length);
      listed.destroy();
      // nothing of it on the local disk: the evidence directory stays empty
      const local = await fsp.readdir(path.join(dataDir, 'evidence')).catch(() => []);
      expect(local).toEqual([]);
    } finally {
      await app.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reads STORAGE_URL and S3_*', () => {
    expect(storageConfig({})).toBeNull();
    expect(storageConfig({ STORAGE_URL: 'file:///var/lib/cunzheng' })).toBeNull();
    expect(storageConfig({ STORAGE_URL: 's3://evidence-bucket/a/b/', S3_REGION: 'cn-hangzhou' })).toEqual({
      bucket: 'evidence-bucket',
      prefix: 'a/b/',
      endpoint: undefined,
      region: 'cn-hangzhou',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      sse: 'AES256',
    });
    expect(() => storageConfig({ STORAGE_URL: 'ftp://x' })).toThrow(/STORAGE_URL/);
    expect(() => storageConfig({ STORAGE_URL: 's3://b1b', S3_ACCESS_KEY_ID: 'x' })).toThrow(/together/);
    expect(() => storageConfig({ STORAGE_URL: 's3://b1b', S3_SSE: 'rot13' })).toThrow(/S3_SSE/);
  });
});
