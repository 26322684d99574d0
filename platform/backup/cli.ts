/**
 * Backups from the command line (docs/decisions/042-backups.md), reading the platform's
 * environment (DATA_DIR, DATABASE_URL, STORAGE_URL and S3_*, secrets from `*_FILE`):
 *
 * - `npm run backup -- create <folder> [--with-keys]` — the embedded default (SQLite + DATA_DIR) into a new folder;
 * - `npm run backup -- restore <folder>` — into an empty DATA_DIR, the platform stopped;
 * - `npm run backup -- check --checkpoint <file|https URL> --vkey <verifier key> [--hash-files]` — the restored
 *   instance (either shape) against the last published checkpoint (restore-check.ts).
 *
 * Exit status: 0 done / check passed; 1 check failed; 2 an error (printed); 64 a usage error.
 */
import fsp from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError } from '../../lib/config-error.ts';
import { readPlatformConfig, type PlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { S3FileStorage } from '../files/s3-storage.ts';
import { LocalFileStorage, type FileStorage } from '../files/storage.ts';
import { checkRestored, reportLines } from './restore-check.ts';
import { backupEmbedded, restoreEmbedded } from './sqlite-backup.ts';

const USAGE = `usage: npm run backup -- create <folder> [--with-keys]
       npm run backup -- restore <folder>
       npm run backup -- check --checkpoint <file|URL> --vkey <verifier key> [--hash-files]
`;

/** Longest checkpoint read (bytes): a note of a few lines and at most 100 signatures (contract/signed-note.ts). */
const MAX_CHECKPOINT_BYTES = 64 * 1024;

/** The checkpoint text from a file or an http(s) URL (a witness's or the log's `/ledger/checkpoint`). */
async function readCheckpoint(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_CHECKPOINT_BYTES) throw new Error(`${source}: not a checkpoint (too long)`);
    return text;
  }
  const stat = await fsp.stat(source);
  if (stat.size > MAX_CHECKPOINT_BYTES) throw new Error(`${source}: not a checkpoint (too long)`);
  return fsp.readFile(source, 'utf8');
}

/** The configured store: the object store of STORAGE_URL, or DATA_DIR. */
function storageOf(config: PlatformConfig): { storage: FileStorage; close: () => void } {
  if (config.storage) {
    const s3 = new S3FileStorage(config.storage);
    return { storage: s3, close: () => s3.destroy() };
  }
  return { storage: new LocalFileStorage(config.dataDir), close: () => undefined };
}

async function check(config: PlatformConfig, checkpoint: string, vkey: string, hashFiles: boolean) {
  const pdb = openDatabase(config.database);
  const { storage, close } = storageOf(config);
  try {
    const report = await checkRestored(pdb.db, storage, { checkpoint, verifierKey: vkey, hashFiles });
    process.stdout.write(`${reportLines(report).join('\n')}\n`);
    return report.ok ? 0 : 1;
  } finally {
    close();
    await pdb.close();
  }
}

/** Runs `argv` (without node and script). @returns the exit status */
async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'with-keys': { type: 'boolean' },
        checkpoint: { type: 'string' },
        vkey: { type: 'string' },
        'hash-files': { type: 'boolean' },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 64;
  }
  const [command, folder, ...rest] = args.positionals;
  const usage = () => (process.stderr.write(USAGE), 64);
  if (rest.length > 0) return usage();
  let config: PlatformConfig;
  try {
    // the environment, once (platform/config.ts): a bad value exits 2 with the list of problems
    config = readPlatformConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2; // as any other error of the command: exit 1 means "check failed" here
  }
  try {
    if (command === 'create' && folder) {
      const m = await backupEmbedded(config, folder, { withKeys: args.values['with-keys'] ?? false });
      process.stdout.write(
        `backup in ${folder}: ledger ${m.treeSize} entries (root ${m.rootHash}), ${m.files} files, ${m.bytes} bytes${m.keys ? ', keys' : ''}\n`,
      );
      for (const missing of m.missing) process.stdout.write(`  deleted before it was copied: ${missing}\n`);
      return 0;
    }
    if (command === 'restore' && folder) {
      const m = await restoreEmbedded(config, folder);
      process.stdout.write(
        `restored into ${config.dataDir}: ledger ${m.treeSize} entries, ${m.files} files${m.keys ? ', keys' : ' (no keys: put them back before starting)'}\n` +
          'next: npm run backup -- check --checkpoint <last published checkpoint> --vkey <verifier key>\n',
      );
      return 0;
    }
    if (command === 'check' && !folder && args.values.checkpoint && args.values.vkey) {
      const checkpoint = await readCheckpoint(args.values.checkpoint);
      return await check(config, checkpoint, args.values.vkey, args.values['hash-files'] ?? false);
    }
    return usage();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
