/**
 * The certificate PDFs the renderer (server/pdf/renderer.ts) keeps in memory beside their cached files: the most
 * recently served complete ones, under the same keys as the files (evidence number, language, template version, view
 * state), so a cached request reads no file. Stat, open, read and close were four trips through libuv's thread pool,
 * and a cached PDF took 8–9 ms at p50 on the 2-core machine (the goal of decision 032: ≤ 5 ms). Each process holds
 * its own; the keys carry the state, so no process serves a PDF of a state that has changed.
 */
import fsp from 'node:fs/promises';

/** Most bytes held in all (~250 certificates of ~130 KB). */
export const HELD_PDF_BYTES = 32 * 1024 * 1024;
/** Largest PDF held (bytes); a larger one streams from its file. */
export const MAX_HELD_PDF_BYTES = 2 * 1024 * 1024;
/** A held PDF's file gets its mtime ("last served", which pruning reads) refreshed at most this often (ms). */
const TOUCH_EVERY_MS = 60_000;

/** Sets a cached file's mtime to now (its "last served" for pruning); a file pruned meanwhile is no error. */
export function touch(file: string): Promise<void> {
  const now = new Date();
  return fsp.utimes(file, now, now).catch(() => undefined);
}

/** Complete PDFs by cache key, least recently served first (a Map keeps insertion order). */
export class HeldPdfs {
  private readonly entries = new Map<string, { bytes: Buffer; touchedAt: number }>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes = HELD_PDF_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /**
   * The bytes held under `key`, now the most recently served (its `file` touched at most once a minute), or
   * undefined.
   */
  recall(key: string, file: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    const now = Date.now();
    if (now - entry.touchedAt >= TOUCH_EVERY_MS) {
      entry.touchedAt = now;
      void touch(file);
    }
    return entry.bytes;
  }

  /** Holds `bytes` under `key` (not above {@link MAX_HELD_PDF_BYTES}); the least recently served go past the limit. */
  hold(key: string, bytes: Buffer): void {
    if (bytes.length > MAX_HELD_PDF_BYTES || this.entries.has(key)) return;
    this.entries.set(key, { bytes, touchedAt: Date.now() });
    this.bytes += bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes.length;
    }
  }
}
