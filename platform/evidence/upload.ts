/**
 * Receiving an uploaded file (issue 2): the multipart file stream is written to a temp file under
 * `${dataDir}/tmp` while its SHA-256 is computed and its bytes are checked for being UTF-8 text — never buffered
 * whole. On any stream error (client cut off, size limit) the temp file is deleted before the error propagates.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A file received into the temp area. `size` in bytes, `sha256` lower-case hex. */
export interface ReceivedFile {
  path: string;
  size: number;
  sha256: string;
  /** True when every byte was valid UTF-8 and none was NUL (a text document). */
  isText: boolean;
}

/** Temp files older than this are leftovers of a crash and are swept at start, seconds. */
const STALE_TEMP_SECONDS = 24 * 3600;

/**
 * Streams `source` into a new file in `tmpDir`.
 * @returns what was received
 * @throws the stream's error, after deleting the partial file
 */
export async function receiveToTemp(source: Readable, tmpDir: string): Promise<ReceivedFile> {
  await fsp.mkdir(tmpDir, { recursive: true });
  const file = path.join(tmpDir, `upload-${randomBytes(12).toString('hex')}`);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let isText = true;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      if (isText) {
        if (chunk.includes(0)) isText = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            isText = false;
          }
        }
      }
      cb(null, chunk);
    },
    flush(cb) {
      if (isText) {
        try {
          decoder.decode();
        } catch {
          isText = false;
        }
      }
      cb();
    },
  });
  try {
    await pipeline(source, tap, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await fsp.rm(file, { force: true });
    throw err;
  }
  return { path: file, size, sha256: hash.digest('hex'), isText: isText && size > 0 };
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
