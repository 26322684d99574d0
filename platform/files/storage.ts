/**
 * Where the platform keeps file bytes (ARCHITECTURE "File storage sits behind an interface"; decision 016): one
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
  /** Notarisation documents and notarial certificates, PDF (issue 14), private, served only through signed URLs. */
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
 * while the parser and the hash go on (issue 11: a streamed 512 MiB upload 116 → 160–180 MiB/s through `/api`,
 * 72 → 140–175 through the no-JS form; RSS growth unchanged within the 150 MB/GiB limit).
 */
export const FILE_WRITE_HIGH_WATER_BYTES = 1024 * 1024;

/**
 * Streams `source` through `taps` (in order) into the new file `dest` (mode 0600); a failed stream deletes the
 * partial file.
 */
export async function streamToNewFile(
  source: Readable,
  taps: Transform | Transform[],
  dest: string,
): Promise<void> {
  try {
    const out = fs.createWriteStream(dest, {
      flags: 'wx',
      mode: 0o600,
      highWaterMark: FILE_WRITE_HIGH_WATER_BYTES,
    });
    await pipeline([source, ...(Array.isArray(taps) ? taps : [taps]), out]);
  } catch (err) {
    await fsp.rm(dest, { force: true });
    throw err;
  }
}

/** A bucket kept as a local directory `root` (`${dataDir}/<bucket>`). */
export class LocalDirectoryBucket implements FileBucket {
  constructor(readonly root: string) {}

  /** Absolute path of `key`. @throws on a key outside the `xx/NAME` shape (no traversal possible) */
  pathOf(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  async put(key: string, source: Readable): Promise<StoredObject> {
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    const counter = new HashingCounter();
    await streamToNewFile(source, counter, dest);
    return counter.result();
  }

  async putFile(tempPath: string, key: string): Promise<void> {
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    try {
      await fsp.rename(tempPath, dest);
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

  async size(key: string): Promise<number | null> {
    try {
      const st = await fsp.stat(this.pathOf(key));
      return st.isFile() ? st.size : null;
    } catch {
      return null;
    }
  }
}

/** Every bucket as a directory under `dataDir`: `${dataDir}/evidence`, `${dataDir}/kyc`, `${dataDir}/signatures`. */
export class LocalFileStorage implements FileStorage {
  private readonly buckets = new Map<BucketName, LocalDirectoryBucket>();

  constructor(readonly dataDir: string) {}

  bucket(name: BucketName): LocalDirectoryBucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = new LocalDirectoryBucket(path.join(this.dataDir, BUCKETS[name]));
      this.buckets.set(name, b);
    }
    return b;
  }
}
