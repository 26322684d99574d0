/**
 * The temp area `${dataDir}/tmp` where uploads land before they are checked and stored (ARCHITECTURE "Evidence,
 * ledger, certificates": streamed, hashed on the way, never buffered whole; a failed upload leaves nothing). A
 * received file carries its size, SHA-256 and whether it is UTF-8 text; the type comes from its first bytes
 * (file-type's magic numbers), never its name. Leftovers of a crash are swept at start.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromFile, type FileTypeResult } from 'file-type';
import { HashingCounter, streamToNewFile, type StoredObject } from './storage.ts';

/** A file received into the temp area. `size` in bytes, `sha256` lower-case hex. */
export interface ReceivedFile extends StoredObject {
  path: string;
  /** True when every byte was valid UTF-8 and none was NUL (a text document). */
  isText: boolean;
}

/** Temp files older than this are leftovers of a crash and are swept at start, seconds. */
const STALE_TEMP_SECONDS = 24 * 3600;

/** {@link HashingCounter} that also tells whether the bytes are UTF-8 text without NULs. */
class TextSniffingCounter extends HashingCounter {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  isText = true;

  override _transform(chunk: Buffer, enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void) {
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
    super._transform(chunk, enc, cb);
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
}

/** A new, unused path in `tmpDir` named `<prefix>-<24 hex>`. */
export function tempPath(tmpDir: string, prefix: string): string {
  return path.join(tmpDir, `${prefix}-${randomBytes(12).toString('hex')}`);
}

/**
 * Streams `source` into a new file in `tmpDir`.
 * @returns what was received
 * @throws the stream's error, after deleting the partial file
 */
export async function receiveToTemp(source: Readable, tmpDir: string): Promise<ReceivedFile> {
  await fsp.mkdir(tmpDir, { recursive: true });
  const file = tempPath(tmpDir, 'upload');
  const tap = new TextSniffingCounter();
  await streamToNewFile(source, tap, file);
  const { size, sha256 } = tap.result();
  return { path: file, size, sha256, isText: tap.isText && size > 0 };
}

/** Removes a temp file if it is still there (after a failed save, or after one moved it away). Never throws. */
export async function discardTemp(file: Pick<ReceivedFile, 'path'> | null | undefined): Promise<void> {
  if (file) await fsp.rm(file.path, { force: true }).catch(() => undefined);
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

/** Deletes temp uploads older than a day (left by a crash). Errors are ignored: this is housekeeping. */
export async function sweepStaleTemp(tmpDir: string): Promise<number> {
  let removed = 0;
  const cutoff = Date.now() - STALE_TEMP_SECONDS * 1000;
  const names = await fsp.readdir(tmpDir).catch(() => [] as string[]);
  for (const name of names) {
    const p = path.join(tmpDir, name);
    const st = await fsp.stat(p).catch(() => null);
    if (st?.isFile() && st.mtimeMs < cutoff) {
      await fsp.rm(p, { force: true }).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}
