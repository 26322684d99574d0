/**
 * Owner-only permissions for the data at rest under DATA_DIR: it holds national ID numbers, bank card numbers,
 * extraction codes and keys, so folders are 0700 and files 0600 (OWASP ASVS 5.0 14.2 "sensitive data at rest";
 * docs/decisions/020-hardening-a.md). New files get it from the process umask; folders and files that already
 * exist (an older install) are tightened with chmod at start-up.
 */
import fs from 'node:fs';

/** Folders under DATA_DIR: owner read/write/search only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files under DATA_DIR: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;
/** The umask bits that make `mkdir`/`open` create 0700 folders and 0600 files whatever mode the caller asked for. */
const PRIVATE_UMASK = 0o077;

/**
 * Tightens the process umask (keeps the bits it already clears, adds group and other), so that every folder and
 * file created from now on (SQLite's -wal/-shm, stored files, temp uploads, the PDF cache) is owner-only. Does
 * nothing where the umask cannot be changed (worker threads).
 */
export function restrictNewFiles(): void {
  try {
    const current = process.umask();
    if ((current & PRIVATE_UMASK) !== PRIVATE_UMASK) process.umask(current | PRIVATE_UMASK);
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION: the main thread owns the umask.
  }
}

/**
 * Creates `dir` (and missing parents) with mode 0700, and chmods it to 0700 when it already existed.
 * @throws what the file system throws (e.g. EACCES)
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Chmods each of `files` that exists to 0600 (a missing one is skipped).
 * @throws what the file system throws besides ENOENT
 */
export function restrictFiles(...files: string[]): void {
  for (const file of files) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Creates `file` empty with mode 0600 when missing (so a library that opens it later, such as better-sqlite3,
 * finds it owner-only) and chmods an existing one to 0600.
 */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  restrictFiles(file);
}
