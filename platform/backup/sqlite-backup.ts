/**
 * Backup and restore of the embedded default: one SQLite file and the buckets under DATA_DIR
 * (docs/decisions/042-backups.md). The PostgreSQL + object-storage shape is backed up with the engines' own tools
 * (pg_dump / point-in-time recovery, a versioned bucket); the check after a restore (restore-check.ts) is the same
 * for both.
 *
 * A backup folder holds `manifest.json`, `cunzheng.sqlite` (SQLite's online backup API, through better-sqlite3:
 * a consistent snapshot taken while the platform keeps writing) and, per bucket, exactly the objects the
 * snapshot's rows name (stored-files.ts) — so a restore has no row without its file and no file without its row.
 * An object deleted between the snapshot and its copy (a replaced KYC image, a deleted seal) is listed in the
 * manifest as missing. Keys (`DATA_DIR/keys`: the ledger's signing key, the download and API-key sealing keys)
 * are copied only when asked: they are secrets and belong in a separate, stricter backup.
 */
import { constants } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { PlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { BUCKETS, LocalFileStorage, type BucketName } from '../files/storage.ts';
import { rootHash, treeSize } from '../ledger/ledger.ts';
import { describeRow, storedFileRows } from './stored-files.ts';

/** The manifest's `format`. */
export const BACKUP_FORMAT = 'cunzheng-backup/1';
/** File names inside a backup folder. */
const DB_FILE = 'cunzheng.sqlite';
const MANIFEST = 'manifest.json';
const KEYS_DIR = 'keys';

/** `manifest.json` of a backup: when (Unix seconds), the snapshot's ledger size and root, what was copied. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: number;
  treeSize: number;
  rootHash: string;
  /** Objects copied, and their total bytes. */
  files: number;
  bytes: number;
  /** Rows whose object was gone when it was copied (`bucket/key (table #id)`). */
  missing: string[];
  keys: boolean;
}

/** @throws unless the platform runs the embedded default (SQLite, files under DATA_DIR) */
function requireEmbedded(config: PlatformConfig): string {
  if (config.database.dialect !== 'sqlite') {
    throw new Error(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump or its point-in-time recovery (README "Backups")',
    );
  }
  if (config.storage) {
    throw new Error(
      'STORAGE_URL is an object store: keep its bucket versioned and replicated (README "Backups")',
    );
  }
  return config.database.file;
}

/** Copies a whole directory when it exists (owner-only files stay owner-only). */
async function copyDirIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await fsp.cp(from, to, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Backs up the running (or stopped) embedded platform of `config` into `dest`, a folder that must not exist yet.
 * @returns the manifest written
 * @throws when `dest` exists, the platform is not the embedded default, or on any I/O error (the partial folder
 *   is removed then)
 */
export async function backupEmbedded(
  config: PlatformConfig,
  dest: string,
  opts: { withKeys?: boolean } = {},
): Promise<BackupManifest> {
  const dbFile = requireEmbedded(config);
  await fsp.mkdir(path.dirname(path.resolve(dest)), { recursive: true });
  await fsp.mkdir(dest, { mode: 0o700 }); // throws EEXIST: never writes into an older backup
  try {
    const live = new SqliteDatabase(dbFile, { fileMustExist: true });
    try {
      await live.backup(path.join(dest, DB_FILE));
    } finally {
      live.close();
    }
    const snapshot = openDatabase({ dialect: 'sqlite', file: path.join(dest, DB_FILE) });
    const source = new LocalFileStorage(config.dataDir);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: Math.floor(Date.now() / 1000),
      treeSize: 0,
      rootHash: '',
      files: 0,
      bytes: 0,
      missing: [],
      keys: false,
    };
    try {
      manifest.treeSize = await treeSize(snapshot.db);
      manifest.rootHash = await rootHash(snapshot.db, manifest.treeSize);
      for await (const row of storedFileRows(snapshot.db)) {
        const from = source.bucket(row.bucket).pathOf(row.key);
        const to = path.join(dest, BUCKETS[row.bucket], row.key);
        await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
        try {
          await fsp.copyFile(from, to, constants.COPYFILE_EXCL);
          manifest.files++;
          manifest.bytes += row.size;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          manifest.missing.push(describeRow(row));
        }
      }
    } finally {
      await snapshot.close();
    }
    if (opts.withKeys)
      manifest.keys = await copyDirIfPresent(path.join(config.dataDir, KEYS_DIR), path.join(dest, KEYS_DIR));
    await fsp.writeFile(path.join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return manifest;
  } catch (err) {
    await fsp.rm(dest, { recursive: true, force: true });
    throw err;
  }
}

/** True when `dir` is missing or holds nothing. */
async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * Restores the backup folder `from` (made by {@link backupEmbedded}) for the embedded platform of `config`, whose
 * DATA_DIR must be empty or missing and whose platform must not be running. Run the check (restore-check.ts)
 * before serving from it.
 * @returns the backup's manifest
 * @throws when `from` is not a backup, DATA_DIR is not empty, or the platform is not the embedded default
 */
export async function restoreEmbedded(config: PlatformConfig, from: string): Promise<BackupManifest> {
  const dbFile = requireEmbedded(config);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(from, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new Error(`${from} is not a backup folder (no readable ${MANIFEST})`);
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new Error(`${from}: unknown backup format ${String(manifest.format)}`);
  if (!(await isEmptyDir(config.dataDir)))
    throw new Error(`DATA_DIR ${config.dataDir} is not empty: restore into an empty one`);
  await fsp.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await fsp.mkdir(path.dirname(dbFile), { recursive: true, mode: 0o700 });
  await fsp.copyFile(path.join(from, DB_FILE), dbFile, constants.COPYFILE_EXCL);
  await fsp.chmod(dbFile, 0o600);
  for (const bucket of Object.keys(BUCKETS) as BucketName[]) {
    await copyDirIfPresent(path.join(from, BUCKETS[bucket]), path.join(config.dataDir, BUCKETS[bucket]));
  }
  if (manifest.keys) await copyDirIfPresent(path.join(from, KEYS_DIR), path.join(config.dataDir, KEYS_DIR));
  return manifest;
}
