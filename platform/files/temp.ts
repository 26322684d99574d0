/**
 * The temp area `${dataDir}/tmp` where uploads land before they are checked and stored (ARCHITECTURE "Evidence,
 * ledger, certificates": streamed, hashed on the way, never buffered whole; a failed upload leaves nothing). A
 * received file carries its size, SHA-256 and whether it is UTF-8 text; the type comes from its first bytes
 * (file-type's magic numbers), never its name.
 *
 * Orphans (a temp file no request of this process holds: the leftover of a kill -9 or a crash) are swept at start
 * and every {@link TEMP_SWEEP_INTERVAL_MS} whatever their age (docs/decisions/024-gateway-bodies.md). A file is held
 * from {@link tempPath} until {@link discardTemp}, or until it was moved away (renamed into storage). The temp area
 * belongs to one platform process: two processes must not share `${DATA_DIR}/tmp`.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { fileTypeFromFile, type FileTypeResult } from 'file-type';
import { OffThreadSha256 } from './sha256-thread.ts';
import { streamToNewFile, type StoredObject } from './storage.ts';

/** A file received into the temp area. `size` in bytes, `sha256` lower-case hex. */
export interface ReceivedFile extends StoredObject {
  path: string;
  /** True when every byte was valid UTF-8 and none was NUL (a text document). */
  isText: boolean;
}

/** A held temp file older than this is swept all the same (a request that never let go of it), seconds. */
const STALE_TEMP_SECONDS = 24 * 3600;

/** How often the running platform sweeps orphan temp files, milliseconds. */
export const TEMP_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * A registered path whose file is missing for longer than this was moved away or deleted: it is forgotten
 * (milliseconds; the grace covers the moment between naming a file and creating it).
 */
const HELD_GRACE_MS = 60 * 1000;

/** Temp paths requests of this process hold, with when they were named (epoch ms). */
const held = new Map<string, number>();

/**
 * The upload tap: counts the bytes, hashes them with SHA-256 on the hashing thread ({@link OffThreadSha256}) and
 * tells whether they are UTF-8 text without NULs. Chunks pass on unchanged once the hashing thread keeps up.
 */
class UploadTap extends Transform {
  private readonly sha = new OffThreadSha256();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  size = 0;
  isText = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void) {
    if (this.isText) {
      if (chunk.includes(0)) this.isText = false;
      else {
        try {
          this.decoder.decode(chunk, { stream: true });
        } catch {
          this.isText = false;
        }
      }
    }
    this.size += chunk.length;
    this.sha.update(chunk, (err) => cb(err ?? null, chunk));
  }

  override _flush(cb: () => void) {
    if (this.isText) {
      try {
        this.decoder.decode();
      } catch {
        this.isText = false;
      }
    }
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void) {
    // a stream that failed or was cut off owes no digest; a finished one is destroyed too (autoDestroy)
    if (err || !this.writableFinished) this.sha.drop();
    cb(err);
  }

  /** The byte count and hex digest; call once, after the stream finished. @throws when the hashing thread failed */
  async result(): Promise<StoredObject> {
    return { size: this.size, sha256: await this.sha.digest() };
  }
}

/** A new, unused path in `tmpDir` named `<prefix>-<24 hex>`, held (not swept) until {@link discardTemp}. */
export function tempPath(tmpDir: string, prefix: string): string {
  const p = path.resolve(tmpDir, `${prefix}-${randomBytes(12).toString('hex')}`);
  held.set(p, Date.now());
  return p;
}

/** The error {@link receiveToTemp} fails with when the source holds more than its `maxBytes`. */
export class TooManyBytesError extends Error {
  override name = 'TooManyBytesError';
}

/** A pass-through that fails with {@link TooManyBytesError} once more than `maxBytes` bytes went through. */
function byteCap(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? new TooManyBytesError(`more than ${maxBytes} bytes`) : null, chunk);
    },
  });
}

/**
 * Streams `source` into a new file in `tmpDir`, at most `maxBytes` bytes when given (a raw request body; multipart
 * parts are capped by busboy).
 * @returns what was received
 * @throws the stream's error (TooManyBytesError past `maxBytes`; ERR_STREAM_PREMATURE_CLOSE for a body cut off),
 *   after deleting the partial file
 */
export async function receiveToTemp(
  source: Readable,
  tmpDir: string,
  maxBytes?: number,
): Promise<ReceivedFile> {
  await fsp.mkdir(tmpDir, { recursive: true });
  const file = tempPath(tmpDir, 'upload');
  const tap = new UploadTap();
  await streamToNewFile(source, maxBytes === undefined ? tap : [byteCap(maxBytes), tap], file);
  // No file without its digest: a hashing thread that failed leaves nothing behind.
  const { size, sha256 } = await tap.result().catch(async (err: unknown) => {
    await fsp.rm(file, { force: true });
    throw err;
  });
  return { path: file, size, sha256, isText: tap.isText && size > 0 };
}

/** Removes a temp file if it is still there (after a failed save, or after one moved it away). Never throws. */
export async function discardTemp(file: Pick<ReceivedFile, 'path'> | null | undefined): Promise<void> {
  if (!file) return;
  await fsp.rm(file.path, { force: true }).catch(() => undefined);
  held.delete(path.resolve(file.path));
}

/** The first `n` bytes of the file at `filePath` (fewer when it is shorter). */
export async function readHead(filePath: string, n: number): Promise<Buffer> {
  const fh = await fsp.open(filePath, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The type of the file at `filePath` by its magic bytes (file-type), or undefined when unknown or unreadable. */
export async function sniffType(filePath: string): Promise<FileTypeResult | undefined> {
  return fileTypeFromFile(filePath).catch(() => undefined);
}

/**
 * Deletes orphan temp files of `tmpDir`: every file no request of this process holds, whatever its age, and held
 * ones older than a day. Forgets held paths whose file is gone (moved into storage). Errors are ignored: this is
 * housekeeping. @returns how many files were removed
 */
export async function sweepStaleTemp(tmpDir: string): Promise<number> {
  let removed = 0;
  const now = Date.now();
  const cutoff = now - STALE_TEMP_SECONDS * 1000;
  const names = await fsp.readdir(tmpDir).catch(() => [] as string[]);
  const present = new Set<string>();
  for (const name of names) {
    const p = path.resolve(tmpDir, name);
    present.add(p);
    const st = await fsp.stat(p).catch(() => null);
    if (!st?.isFile()) continue;
    if (held.has(p) && st.mtimeMs >= cutoff) continue;
    await fsp.rm(p, { force: true }).catch(() => undefined);
    held.delete(p);
    removed++;
  }
  const dir = path.resolve(tmpDir);
  for (const [p, since] of held) {
    if (path.dirname(p) === dir && !present.has(p) && now - since > HELD_GRACE_MS) held.delete(p);
  }
  return removed;
}

/**
 * Sweeps `tmpDir` every `intervalMs` ({@link sweepStaleTemp}); `onSwept(n)` hears of each sweep that removed
 * files. @returns a function that stops the timer (the timer never keeps the process alive)
 */
export function startTempSweeper(
  tmpDir: string,
  onSwept: (removed: number) => void,
  intervalMs = TEMP_SWEEP_INTERVAL_MS,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepStaleTemp(tmpDir)
      .then((n) => {
        if (n) onSwept(n);
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
