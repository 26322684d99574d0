/**
 * Direct writes of large files (files/direct-io.ts, decision 016): every size comes back byte for byte, whole slots
 * go through an `O_DIRECT` descriptor in aligned writes, small files never open one, a refusal falls back to the page
 * cache for good, a failed stream leaves no file and every slot returns to the pool.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIRECT_SLOT_BYTES, directIoUsable, freeDirectSlots, resetDirectIoSupport } from './direct-io.ts';
import { FILE_FLUSH_EVERY_BYTES } from './flush.ts';
import { LocalFileStorage } from './storage.ts';

const SLOT = DIRECT_SLOT_BYTES;
const O_DIRECT = fs.constants.O_DIRECT ?? 0;

/** `data` as a stream of chunks of `size` bytes (the last one shorter). */
function chunked(data: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += size) chunks.push(data.subarray(at, at + size));
  return Readable.from(chunks);
}

/** One descriptor opened by the code under test: its path, flags, and the writes made through it. */
interface Opened {
  path: string;
  direct: boolean;
  writes: { length: number; position: number }[];
  syncs: number;
  /** For each `datasync` through this descriptor: the bytes the file's direct descriptor had written by then. */
  datasyncsAt: number[];
  closed: boolean;
}

/**
 * Records every `fsp.open` (flags as numbers or strings) and the writes, syncs and closes of the handles; `refuse`
 * makes a direct open, or the direct handle's first write, fail with EINVAL.
 */
function recordOpens(refuse?: 'open' | 'write'): Opened[] {
  const log: Opened[] = [];
  const open = fsp.open.bind(fsp);
  vi.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const flags = args[1];
    const direct = typeof flags === 'number' && (flags & O_DIRECT) !== 0;
    if (direct && refuse === 'open')
      throw Object.assign(new Error('EINVAL: invalid argument'), { code: 'EINVAL' });
    const handle: FileHandle = await open(...args);
    const entry: Opened = {
      path: String(args[0]),
      direct,
      writes: [],
      syncs: 0,
      datasyncsAt: [],
      closed: false,
    };
    log.push(entry);
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
    handle.write = (async (...a: unknown[]) => {
      if (direct && refuse === 'write')
        throw Object.assign(new Error('EINVAL: invalid argument'), { code: 'EINVAL' });
      const result = await write(...a);
      entry.writes.push({ length: result.bytesWritten, position: a[3] as number });
      return result;
    }) as FileHandle['write'];
    const sync = handle.sync.bind(handle);
    handle.sync = () => {
      entry.syncs++;
      return sync();
    };
    const datasync = handle.datasync.bind(handle);
    handle.datasync = () => {
      const directly = log.filter((o) => o.path === entry.path && o.direct).flatMap((o) => o.writes);
      entry.datasyncsAt.push(directly.reduce((sum, w) => sum + w.length, 0));
      return datasync();
    };
    const close = handle.close.bind(handle);
    handle.close = () => {
      entry.closed = true;
      return close();
    };
    return handle;
  });
  return log;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.skipIf(!O_DIRECT)('direct writes of large files', () => {
  let dataDir: string;
  beforeEach(async () => {
    resetDirectIoSupport();
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-direct-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    resetDirectIoSupport();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('every size comes back byte for byte, whatever the chunks, and every slot returns to the pool', async () => {
    const bucket = new LocalFileStorage(dataDir).bucket('evidence');
    const sizes = [0, 1, 4095, 4096, 4097, SLOT - 1, SLOT, SLOT + 1, 3 * SLOT + 12_345];
    for (const [i, size] of sizes.entries()) {
      const data = randomBytes(size);
      const key = `ab/SIZE${String(i).padStart(4, '0')}`;
      const stored = await bucket.put(key, chunked(data, 65_536 + 7));
      expect(stored).toEqual({ size, sha256: sha256(data) });
      expect((await fsp.readFile(bucket.pathOf(key))).equals(data)).toBe(true);
      expect((await fsp.stat(bucket.pathOf(key))).mode & 0o777).toBe(0o600);
    }
    expect(freeDirectSlots()).toBe(48);
    expect(directIoUsable()).toBe(true);
  });

  it('whole slots go through an O_DIRECT descriptor in aligned writes; the tail and the flush through the other', async () => {
    const log = recordOpens();
    const bucket = new LocalFileStorage(dataDir).bucket('evidence');
    const data = randomBytes(2 * SLOT + 5000);
    await bucket.put('cd/LARGE001', chunked(data, 100_000));
    const file = bucket.pathOf('cd/LARGE001');
    const mine = log.filter((o) => o.path === file);
    expect(mine.map((o) => o.direct)).toEqual([false, true]);
    const [plain, direct] = mine as [Opened, Opened];
    // two whole slots and the tail's one whole block directly, the last 904 bytes through the page cache; two
    // writes are in flight at once, so they are compared in file order, not in the order they completed
    expect(direct.writes.toSorted((a, b) => a.position - b.position)).toEqual([
      { length: SLOT, position: 0 },
      { length: SLOT, position: SLOT },
      { length: 4096, position: 2 * SLOT },
    ]);
    expect(plain.writes).toEqual([{ length: 904, position: 2 * SLOT + 4096 }]);
    expect(plain.syncs).toBe(1);
    expect(mine.every((o) => o.closed)).toBe(true);
    expect((await fsp.readFile(file)).equals(data)).toBe(true);

    // a file smaller than a slot never opens a direct descriptor
    log.length = 0;
    await bucket.put('cd/SMALL001', Readable.from([randomBytes(SLOT - 1)]));
    expect(log.filter((o) => o.path === bucket.pathOf('cd/SMALL001')).map((o) => o.direct)).toEqual([false]);
  });

  it(`direct writes are flushed in the background every 32 MiB, before the final flush (decision 016, "The device's cache")`, async () => {
    const log = recordOpens();
    const bucket = new LocalFileStorage(dataDir).bucket('evidence');
    const data = Buffer.alloc(2 * FILE_FLUSH_EVERY_BYTES + 3 * SLOT, 5);
    await bucket.put('cd/FLUSHED1', chunked(data, 256 * 1024));
    const plain = log.find((o) => o.path === bucket.pathOf('cd/FLUSHED1') && !o.direct)!;
    // a flush once the first 32 MiB were on the device, another after the next 32 MiB (the first has ended by then
    // or is skipped; either way none before 32 MiB and none of the file's own in parallel), then the final sync
    expect(plain.datasyncsAt.length).toBeGreaterThanOrEqual(1);
    expect(plain.datasyncsAt[0]).toBeGreaterThanOrEqual(FILE_FLUSH_EVERY_BYTES);
    expect(plain.datasyncsAt[0]).toBeLessThan(data.length);
    expect(plain.syncs).toBe(1);
    expect(plain.closed).toBe(true);

    // a file under 32 MiB has only its final flush
    log.length = 0;
    await bucket.put('cd/FLUSHED2', chunked(Buffer.alloc(4 * SLOT, 6), 256 * 1024));
    const small = log.find((o) => o.path === bucket.pathOf('cd/FLUSHED2') && !o.direct)!;
    expect(small.datasyncsAt).toEqual([]);
    expect(small.syncs).toBe(1);
  });

  for (const refuse of ['open', 'write'] as const) {
    it(`a refused direct ${refuse} (EINVAL) writes the file through the page cache and stops trying`, async () => {
      const log = recordOpens(refuse);
      const bucket = new LocalFileStorage(dataDir).bucket('evidence');
      const data = randomBytes(3 * SLOT + 77);
      expect((await bucket.put('ef/REFUSED1', chunked(data, 65_536))).sha256).toBe(sha256(data));
      expect((await fsp.readFile(bucket.pathOf('ef/REFUSED1'))).equals(data)).toBe(true);
      expect(directIoUsable()).toBe(false);

      const directOpens = () => log.filter((o) => o.direct).length;
      const before = directOpens();
      const again = randomBytes(2 * SLOT);
      await bucket.put('ef/REFUSED2', chunked(again, 65_536));
      expect((await fsp.readFile(bucket.pathOf('ef/REFUSED2'))).equals(again)).toBe(true);
      expect(directOpens()).toBe(before);
      expect(freeDirectSlots()).toBe(48);
    });
  }

  it('a stream that fails halfway leaves no file, closes both descriptors and returns every slot', async () => {
    const log = recordOpens();
    const bucket = new LocalFileStorage(dataDir).bucket('kyc');
    const part = randomBytes(SLOT / 2);
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 5) this.push(part);
        else this.destroy(new Error('cut off'));
      },
    });
    await expect(bucket.put('gh/BROKEN01', failing)).rejects.toThrow('cut off');
    expect(await bucket.size('gh/BROKEN01')).toBeNull();
    const mine = log.filter((o) => o.path === bucket.pathOf('gh/BROKEN01'));
    expect(mine.map((o) => o.direct)).toEqual([false, true]);
    expect(mine.every((o) => o.closed)).toBe(true);
    expect(freeDirectSlots()).toBe(48);
  });

  it('more files at once than the pool has slots for are all written whole', async () => {
    const bucket = new LocalFileStorage(dataDir).bucket('evidence');
    const files = Array.from({ length: 24 }, (_, i) => ({
      key: `ij/MANY${String(i).padStart(4, '0')}`,
      data: randomBytes(3 * SLOT + i * 1000),
    }));
    await Promise.all(files.map((f) => bucket.put(f.key, chunked(f.data, 65_536))));
    for (const f of files) expect(sha256(await fsp.readFile(bucket.pathOf(f.key)))).toBe(sha256(f.data));
    expect(freeDirectSlots()).toBe(48);
  });
});
