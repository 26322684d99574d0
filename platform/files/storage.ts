/**
 * Where the platform keeps file bytes (ARCHITECTURE "Storage"; decision 016): one
 * {@link FileStorage} of named buckets — evidence originals, KYC images, seal images, and whatever a new area adds
 * to {@link BUCKETS} — each a {@link FileBucket} of objects under opaque keys (`xx/NAME`). The local implementation
 * keeps `${dataDir}/<bucket>/<xx>/<NAME>`, the layout the platform has always used; an S3-compatible store
 * implements the same two interfaces and is passed once to `buildPlatform({ storage })`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DirectFileSink, directIoUsable } from './direct-io.ts';
import { BackgroundFlusher, FILE_FLUSH_EVERY_BYTES } from './flush.ts';

export { FILE_FLUSH_EVERY_BYTES };

/** The buckets and what they hold; the name is also the local directory under DATA_DIR. */
export const BUCKETS = {
  /** Evidence originals and normalised user data (spec 01 §2.3), key `xx/<baoquan>`. */
  evidence: 'evidence',
  /** KYC images (spec 02 §3), private, served only through signed URLs. */
  kyc: 'kyc',
  /** Signature seal PNGs (spec 01 §2.7). */
  signatures: 'signatures',
  /** Issued invoice files, PDF or OFD (spec 02 §2 "Invoices"), private, served only through signed URLs. */
  invoices: 'invoices',
  /**
   * Notarisation documents and notarial certificates, PDF (decision 034), private, served only through signed URLs.
   */
  notary: 'notary',
} as const;
export type BucketName = keyof typeof BUCKETS;

/** What a put stored: `size` in bytes, `sha256` lower-case hex. */
export interface StoredObject {
  size: number;
  sha256: string;
}

/** One bucket: objects under keys of the shape `xx/NAME` (2 + 8–64 characters of [0-9A-Za-z]). */
export interface FileBucket {
  /**
   * Streams `source` into the object `key`, hashing it on the way; a failed stream leaves no object.
   * @throws the stream's error; on an invalid key
   */
  put(key: string, source: Readable): Promise<StoredObject>;
  /** Moves the finished temp file at `tempPath` (files/temp.ts) into the object `key`; the temp file is gone after. */
  putFile(tempPath: string, key: string): Promise<void>;
  /**
   * A stream of the bytes of `key`, or of `range` of them (byte offsets, both inclusive, as HTTP and fs count).
   * @throws (on the stream) when the object is missing
   */
  get(key: string, range?: { start: number; end: number }): Readable;
  /** Deletes the object `key`; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Size of `key` in bytes, or null when it is missing. */
  size(key: string): Promise<number | null>;
}

/** The one store of every bucket, decorated on the platform as `app.files` (files/service.ts). */
export interface FileStorage {
  bucket(name: BucketName): FileBucket;
}

const KEY_RE = /^[0-9A-Za-z]{2}\/[0-9A-Za-z]{8,64}$/;

/** `key` when it has the `xx/NAME` shape of every store's keys. @throws otherwise (no traversal possible) */
export function checkedKey(key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}

/** A pass-through stream that counts bytes and computes their SHA-256. */
export class HashingCounter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void) {
    this.hash.update(chunk);
    this.size += chunk.length;
    cb(null, chunk);
  }

  /** The byte count and hex digest; call once, after the stream finished. */
  result(): StoredObject {
    return { size: this.size, sha256: this.hash.digest('hex') };
  }
}

/**
 * Bytes a file write stream queues while a write is in the thread pool (its high-water mark). With Node's 16 KiB
 * default an upload's parser waited for nearly every disk write; with 1 MiB the queued chunks go out as one `writev`
 * while the parser and the hash go on (decision 032: a streamed 512 MiB upload 116 → 160–180 MiB/s through `/api`,
 * 72 → 140–175 through the no-JS form; RSS growth unchanged within the 150 MB/GiB limit).
 */
export const FILE_WRITE_HIGH_WATER_BYTES = 1024 * 1024;

/**
 * Streams `source` through `taps` (in order) into the new file `dest` (mode 0600): whole megabytes straight to the
 * disk where `O_DIRECT` works ({@link DirectFileSink}), else through the page cache; either way flushed to the disk
 * as it goes (`fdatasync` every {@link FILE_FLUSH_EVERY_BYTES}, files/flush.ts); with `flush`, the file is flushed
 * once more at its close before this resolves.
 * Durability is the bucket's (`put` flushes here, `putFile` flushes the temp file before the rename, then the
 * directory: {@link syncPath}), so that a power cut after a save cannot leave a committed row whose file is
 * empty or cut short (ARCHITECTURE "Storage"); a temp file that is never stored pays no final
 * flush. A failed stream deletes the partial file; an existing `dest` is left alone.
 * @throws the open's error (EEXIST), the stream's, or the flush's (EIO, ENOSPC)
 */
export async function streamToNewFile(
  source: Readable,
  taps: Transform | Transform[],
  dest: string,
  flush = false,
): Promise<void> {
  // an existing file is not ours to delete: the open fails before the try (EEXIST)
  const file = await fsp.open(dest, 'wx', 0o600);
  const stages = [source, ...(Array.isArray(taps) ? taps : [taps])];
  if (directIoUsable()) {
    // whole megabytes straight to the disk (files/direct-io.ts), its cache flushed as they go
    const sink = new DirectFileSink(file, dest, flush);
    try {
      await pipeline([...stages, sink]);
      return;
    } catch (err) {
      await sink.settled();
      await fsp.rm(dest, { force: true });
      throw err;
    }
  }
  const flusher = new BackgroundFlusher(file);
  try {
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        flusher.wrote(chunk.length); // what the write stream has written by now goes to the disk meanwhile
        done(null, chunk);
      },
    });
    // The stream owns the handle: it closes it at its end or on an error (after an fsync at the end with `flush`).
    const out = file.createWriteStream({ highWaterMark: FILE_WRITE_HIGH_WATER_BYTES, flush });
    await pipeline([...stages, counter, out]);
  } catch (err) {
    await flusher.settled();
    await fsp.rm(dest, { force: true });
    throw err;
  }
}

/**
 * `fsync` of the file or directory at `file`: a file's bytes, or the names in a directory (after a file was renamed or
 * created in it), are on the disk when this resolves. @throws the open's or the sync's error
 */
export async function syncPath(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A bucket kept as a local directory `root` (`${dataDir}/<bucket>`). */
export class LocalDirectoryBucket implements FileBucket {
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  /** Absolute path of `key`. @throws on a key outside the `xx/NAME` shape (no traversal possible) */
  pathOf(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  /** The directory of `key`, created (and its own name made durable) when it is the key's first. */
  private async directoryOf(key: string): Promise<string> {
    const dir = path.dirname(this.pathOf(key));
    if (await fsp.mkdir(dir, { recursive: true })) await syncPath(path.dirname(dir));
    return dir;
  }

  async put(key: string, source: Readable): Promise<StoredObject> {
    const dir = await this.directoryOf(key);
    const counter = new HashingCounter();
    await streamToNewFile(source, counter, this.pathOf(key), true);
    await syncPath(dir);
    return counter.result();
  }

  /** The temp file's bytes (whoever wrote them), then its new name, are made durable here. */
  async putFile(tempPath: string, key: string): Promise<void> {
    const dir = await this.directoryOf(key);
    await syncPath(tempPath);
    try {
      await fsp.rename(tempPath, this.pathOf(key));
      await syncPath(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // temp and storage on different file systems: copy, then drop the temp file
      await this.put(key, fs.createReadStream(tempPath));
      await fsp.rm(tempPath, { force: true });
    }
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(key), range);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  /**
   * A synchronous stat on purpose: it is asked on every certificate view (isDownload) and cached PDF, and one
   * metadata lookup costs less than the thread pool's round trip (queue, wake-up, promise), which was ~20 % of the
   * platform thread's CPU on a certificate page under load (decision 032). The platform thread already does
   * SQLite's I/O synchronously.
   */
  async size(key: string): Promise<number | null> {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(this.pathOf(key), { throwIfNoEntry: false });
    } catch {
      return null; // ENOTDIR, EACCES, …: no readable object there
    }
    return st?.isFile() ? st.size : null;
  }
}

/** Every bucket as a directory under `dataDir`: `${dataDir}/evidence`, `${dataDir}/kyc`, `${dataDir}/signatures`. */
export class LocalFileStorage implements FileStorage {
  private readonly buckets = new Map<BucketName, LocalDirectoryBucket>();
  readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  bucket(name: BucketName): LocalDirectoryBucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = new LocalDirectoryBucket(path.join(this.dataDir, BUCKETS[name]));
      this.buckets.set(name, b);
    }
    return b;
  }
}
