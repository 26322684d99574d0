/** The local file storage (decision 016): the DATA_DIR layout per bucket, hashing puts, key checks, clean failures. */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDirectIoSupport } from './direct-io.ts';
import { FILE_FLUSH_EVERY_BYTES, LocalFileStorage } from './storage.ts';
import { receiveToTemp } from './temp.ts';

describe('LocalFileStorage', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-files-'));
  });
  afterEach(async () => {
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps each bucket in its old directory under DATA_DIR', async () => {
    const store = new LocalFileStorage(dataDir);
    for (const [bucket, dir] of [
      ['evidence', 'evidence'],
      ['kyc', 'kyc'],
      ['signatures', 'signatures'],
    ] as const) {
      await store.bucket(bucket).put('ab/KEY12345', Readable.from([Buffer.from(bucket)]));
      expect(await fsp.readFile(path.join(dataDir, dir, 'ab', 'KEY12345'), 'utf8')).toBe(bucket);
    }
  });

  it('put hashes while streaming; get, size and delete follow', async () => {
    const bucket = new LocalFileStorage(dataDir).bucket('evidence');
    const chunks = [Buffer.from('hello '), Buffer.from('world')];
    const stored = await bucket.put('xy/ABCDEFGH', Readable.from(chunks));
    const all = Buffer.concat(chunks);
    expect(stored).toEqual({ size: all.length, sha256: createHash('sha256').update(all).digest('hex') });
    expect(await bucket.size('xy/ABCDEFGH')).toBe(all.length);
    const read: Buffer[] = [];
    for await (const c of bucket.get('xy/ABCDEFGH')) read.push(c as Buffer);
    expect(Buffer.concat(read).equals(all)).toBe(true);
    await bucket.delete('xy/ABCDEFGH');
    await bucket.delete('xy/ABCDEFGH');
    expect(await bucket.size('xy/ABCDEFGH')).toBeNull();
  });

  it('a failed stream leaves no object', async () => {
    const bucket = new LocalFileStorage(dataDir).bucket('kyc');
    const failing = new Readable({
      read() {
        this.push(Buffer.from('part'));
        this.destroy(new Error('cut off'));
      },
    });
    await expect(bucket.put('ab/BROKEN12', failing)).rejects.toThrow('cut off');
    expect(await bucket.size('ab/BROKEN12')).toBeNull();
  });

  it('refuses keys outside the xx/NAME shape', async () => {
    const bucket = new LocalFileStorage(dataDir).bucket('signatures');
    for (const key of ['../etc/passwd', 'ab/../../x12345678', 'abc/DEFGHIJK', 'ab/short']) {
      expect(() => bucket.get(key)).toThrow('invalid storage key');
      await expect(bucket.delete(key)).rejects.toThrow('invalid storage key');
    }
  });

  it('putFile moves a received temp file into the bucket', async () => {
    const tmp = path.join(dataDir, 'tmp');
    const received = await receiveToTemp(Readable.from([Buffer.from('seal')]), tmp);
    expect(received).toMatchObject({ size: 4, isText: true });
    const bucket = new LocalFileStorage(dataDir).bucket('signatures');
    await bucket.putFile(received.path, 'cd/MOVED123');
    expect(await bucket.size('cd/MOVED123')).toBe(4);
    expect(await fsp.readdir(tmp)).toEqual([]);
  });

  /**
   * What reached the disk cannot be seen without a power cut, so this records the flushes asked of every file and
   * directory the storage opens: `[path, 'sync' | 'datasync']` in order (the write stream flushes through its handle).
   */
  function recordFlushes(): [string, string][] {
    const log: [string, string][] = [];
    const open = fsp.open.bind(fsp);
    vi.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await open(...args);
      for (const op of ['sync', 'datasync'] as const) {
        const real = handle[op].bind(handle);
        handle[op] = () => {
          log.push([String(args[0]), op]);
          return real();
        };
      }
      return handle;
    });
    return log;
  }

  it('a stored file is flushed as it is written and at its end, then the name in its directory (page cache path)', async () => {
    // the path of file systems without O_DIRECT (the direct path's flushes: direct-io.test.ts)
    resetDirectIoSupport(true);
    const log = recordFlushes();
    try {
      const bucket = new LocalFileStorage(dataDir).bucket('evidence');
      const MiB = 1024 * 1024;
      const chunks = Array.from({ length: FILE_FLUSH_EVERY_BYTES / MiB + 2 }, (_, i) => Buffer.alloc(MiB, i));
      await bucket.put('cd/DURABLE1', Readable.from(chunks));
      const file = path.join(dataDir, 'evidence', 'cd', 'DURABLE1');
      const dir = path.dirname(file);
      // the first object of a new `cd/` directory: the bucket's directory learns its name too
      expect(log.filter(([p]) => p === file).map(([, op]) => op)).toEqual(
        expect.arrayContaining(['datasync', 'sync']),
      );
      expect(log.findIndex(([p]) => p === dir)).toBeGreaterThan(
        log.findIndex(([p, op]) => p === file && op === 'sync'),
      );
      expect(log.some(([p]) => p === path.dirname(dir))).toBe(true);

      // a moved temp file: its data flushed when received, its new name after the move
      log.length = 0;
      const tmp = path.join(dataDir, 'tmp');
      const received = await receiveToTemp(Readable.from([Buffer.from('moved')]), tmp);
      await bucket.putFile(received.path, 'cd/DURABLE2');
      expect(log).toEqual([
        [received.path, 'sync'],
        [dir, 'sync'],
      ]);
    } finally {
      vi.restoreAllMocks();
      resetDirectIoSupport();
    }
  });

  it('at most two background flushes run at once in the process (libuv pool threads stay free for writes)', async () => {
    const MiB = 1024 * 1024;
    let calls = 0;
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const open = fsp.open.bind(fsp);
    resetDirectIoSupport(true);
    vi.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await open(...args);
      const real = handle.datasync.bind(handle);
      // the flush itself runs (the handle may close), but it counts as running until the gate opens
      handle.datasync = async () => {
        calls++;
        await real();
        await gate;
      };
      return handle;
    });
    try {
      const bucket = new LocalFileStorage(dataDir).bucket('evidence');
      const chunk = Buffer.alloc(MiB, 7);
      // four files at once, each crossing the flush threshold once
      const body = () => Readable.from(Array.from({ length: FILE_FLUSH_EVERY_BYTES / MiB + 1 }, () => chunk));
      await Promise.all(
        ['ef/CAPPED01', 'ef/CAPPED02', 'ef/CAPPED03', 'ef/CAPPED04'].map((k) => bucket.put(k, body())),
      );
      expect(calls).toBe(2);
    } finally {
      release();
      vi.restoreAllMocks();
      resetDirectIoSupport();
    }
  });
});
