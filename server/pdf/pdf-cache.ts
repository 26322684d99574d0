/**
 * The disk cache of certificate PDFs (`${DATA_DIR}/cache/pdf/` or PDF_CACHE_DIR, shared by several gateways): file
 * names keyed by evidence number, language, template version and view state; files written atomically (temp file +
 * rename); the least recently served pruned first (a complete PDF's mtime records when it was last served).
 */
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/** The part of the view that changes what a certificate shows after it was issued (hashed into the cache key). */
export interface ViewState {
  chainhash: string;
  deletedAt: string | null;
  isDownload: 0 | 1;
}

/** A file's path, size in bytes and mtime (milliseconds since the epoch). */
export interface FileStat {
  file: string;
  size: number;
  mtimeMs: number;
}

/** Size and mtime of a file, or null when it does not exist. */
export async function statFile(file: string): Promise<FileStat | null> {
  try {
    const s = await fsp.stat(file);
    return { file, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/**
 * The template version of a UI build: the first 16 hex characters of the SHA-256 of `${buildDirectory}/server/index.js`
 * (the server build embeds the client manifest's hashed asset names, so any change of a page or style changes it)
 * and of `salt` (settings the print view prints, e.g. PUBLIC_URL, the origin of its QR code).
 *
 * @returns the version, or null when there is no build file (development)
 */
export async function templateVersionOf(buildDirectory: string, salt = ''): Promise<string | null> {
  try {
    const bytes = await fsp.readFile(path.join(buildDirectory, 'server', 'index.js'));
    return createHash('sha256').update(bytes).update(`\0${salt}`).digest('hex').slice(0, 16);
  } catch {
    return null;
  }
}

/** SHA-256 (first 16 hex) of the canonical JSON of a view state. */
export function viewStateHash(state: ViewState): string {
  const canonical = JSON.stringify({
    chainhash: state.chainhash,
    deletedAt: state.deletedAt,
    isDownload: state.isDownload,
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** One cache directory: created on first write, pruned to `maxBytes`, stale versions of an evidence dropped. */
export class PdfCacheDir {
  private ready: Promise<unknown> | null = null;
  readonly dir: string;
  private readonly maxBytes: number;
  private readonly logger: FastifyBaseLogger;

  constructor(dir: string, maxBytes: number, logger: FastifyBaseLogger) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.logger = logger;
  }

  /** Writes `bytes` to `file` (in this directory) through a temp file and a rename. @throws the file system's errors */
  async writeAtomically(file: string, bytes: Buffer): Promise<void> {
    await this.ensure();
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fsp.writeFile(tmp, bytes);
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  private ensure(): Promise<unknown> {
    this.ready ??= fsp.mkdir(this.dir, { recursive: true }).catch((err: unknown) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  /**
   * Deletes the least recently served PDFs until the cache holds at most `maxBytes` (with 10% headroom so it does
   * not run on every check); temp files older than an hour (a crash mid-write) go too. Best effort: never throws.
   */
  async prune(): Promise<void> {
    try {
      const files: FileStat[] = [];
      for (const name of await fsp.readdir(this.dir)) {
        const s = await statFile(path.join(this.dir, name));
        if (!s) continue;
        if (name.endsWith('.tmp')) {
          if (Date.now() - s.mtimeMs > 3600_000) await fsp.rm(s.file, { force: true });
        } else if (name.endsWith('.pdf')) files.push(s);
      }
      let total = files.reduce((sum, f) => sum + f.size, 0);
      if (total <= this.maxBytes) return;
      files.sort((a, b) => a.mtimeMs - b.mtimeMs);
      const target = this.maxBytes * 0.9;
      let removed = 0;
      for (const f of files) {
        if (total <= target) break;
        await fsp.rm(f.file, { force: true });
        total -= f.size;
        removed++;
      }
      this.logger.info({ removed, bytes: total }, 'pdf: cache pruned');
    } catch (err) {
      this.logger.warn({ err }, 'pdf: could not prune the cache');
    }
  }

  /** Removes the PDFs whose names start with `prefix` (another state or template) but `keep`; best effort. */
  async dropStale(prefix: string, keep: string): Promise<void> {
    try {
      for (const name of await fsp.readdir(this.dir)) {
        if (name.startsWith(prefix) && name.endsWith('.pdf') && name !== keep) {
          await fsp.rm(path.join(this.dir, name), { force: true });
        }
      }
    } catch (err) {
      this.logger.debug({ err }, 'pdf: could not prune the cache');
    }
  }
}
