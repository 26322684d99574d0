/**
 * Background flushes of a file being written (decision 016, "Durable files and commits" and "The device's cache"):
 * every {@link FILE_FLUSH_EVERY_BYTES} written, `fdatasync` runs in the thread pool while the next chunks arrive, so
 * the flush before a file counts as stored waits only for its tail. Both ways of writing a file need them
 * (`streamToNewFile` through the page cache, `DirectFileSink` with `O_DIRECT`): a direct write leaves nothing in the
 * page cache, but a virtual disk with a write-back cache on its host keeps it there until a flush, and a flush asks
 * for everything the device holds, whichever file asked. After 512 MiB written directly without one, the next
 * `fsync` of any file (SQLite's commit of the save, the job queue's claim) took 270–450 ms on this machine's disk
 * (1 ms after the same 512 MiB written with a flush every 32 MiB), and the platform thread, which runs SQLite
 * synchronously, stood still for that long.
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes written between two background flushes of a file (32 MiB: ~65 ms of disk writing here). */
export const FILE_FLUSH_EVERY_BYTES = 32 * 1024 * 1024;

/**
 * Background flushes running at once in the process, at most: each holds one of libuv's four pool threads for the
 * length of a disk write, and the same threads write files and run scrypt for logins, so many uploads at once must
 * not fill the pool with flushes. A skipped flush only leaves more for the next one.
 */
const MAX_BACKGROUND_FLUSHES = 2;
let backgroundFlushes = 0;

/**
 * The background flushes of one file, through `handle` (which must stay open until {@link settled} resolves; a
 * FileHandle also waits for its operations before it closes).
 */
export class BackgroundFlusher {
  private sinceFlush = 0;
  private flushing: Promise<void> | null = null;
  private readonly handle: FileHandle;

  constructor(handle: FileHandle) {
    this.handle = handle;
  }

  /**
   * Counts `bytes` (bytes) more as written; starts a flush when {@link FILE_FLUSH_EVERY_BYTES} passed since the last
   * one started, none of this file's is running and fewer than two run in the process. Never throws: a failing disk
   * is reported by the final flush.
   */
  wrote(bytes: number): void {
    this.sinceFlush += bytes;
    if (
      this.sinceFlush < FILE_FLUSH_EVERY_BYTES ||
      this.flushing !== null ||
      backgroundFlushes >= MAX_BACKGROUND_FLUSHES
    ) {
      return;
    }
    this.sinceFlush = 0;
    backgroundFlushes++;
    this.flushing = this.handle
      .datasync()
      .catch(() => undefined)
      .finally(() => {
        backgroundFlushes--;
        this.flushing = null;
      });
  }

  /** Resolves once this file's flush in flight, if any, has ended (never rejects). */
  async settled(): Promise<void> {
    await this.flushing;
  }
}
