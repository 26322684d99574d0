/**
 * Where evidence bytes live (ARCHITECTURE: "File storage sits behind an interface"). The local-directory
 * implementation keeps `${dataDir}/evidence/<2 chars>/<baoquan>`; an S3-compatible one can implement the same calls.
 * Uploads are first received into a temp file (upload.ts) and handed over with {@link EvidenceStorage.putFile}.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface EvidenceStorage {
  /** Moves the finished temp file at `tempPath` into storage under `key`; the temp file is gone afterwards. */
  putFile(tempPath: string, key: string): Promise<void>;
  /** Deletes the object `key`; a missing object is not an error. */
  remove(key: string): Promise<void>;
  /** Size of `key` in bytes, or null when it is missing. */
  size(key: string): Promise<number | null>;
  /** A stream of the bytes of `key`. @throws (on the stream) when the object is missing */
  openRead(key: string): Readable;
}

const KEY_RE = /^[0-9A-Za-z]{2}\/[0-9A-Za-z]{8,64}$/;

/** Local directory storage rooted at `root` (normally `${dataDir}/evidence`). */
export class LocalDirectoryStorage implements EvidenceStorage {
  constructor(readonly root: string) {}

  /** Absolute path of `key`. @throws on a key outside the `xx/NAME` shape (no traversal possible). */
  pathOf(key: string): string {
    if (!KEY_RE.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(this.root, key);
  }

  async putFile(tempPath: string, key: string): Promise<void> {
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    try {
      await fsp.rename(tempPath, dest);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // temp and storage on different file systems: copy, then drop the temp file
      await fsp.copyFile(tempPath, dest, fs.constants.COPYFILE_EXCL);
      await fsp.rm(tempPath, { force: true });
    }
  }

  async remove(key: string): Promise<void> {
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

  openRead(key: string): Readable {
    return fs.createReadStream(this.pathOf(key));
  }
}
