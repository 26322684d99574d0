/**
 * Operator accounts CLI (docs/decisions/015-operator-console-roles.md): `npm run ops -- create <username>
 * <password> [--roles reviewer,finance]`, `npm run ops -- roles <username> [<roles>]` (also `node
 * platform/ops/cli.ts …`). Reads the platform's environment once (DATA_DIR, DATABASE_URL, SCRYPT_*; platform/config.ts:
 * a bad value exits 2 with the list of problems), migrates the database if needed and runs the command of
 * cli-commands.ts, printing its answer with its exit code.
 */
import { ConfigError } from '../../lib/config-error.ts';
import { readPlatformConfig, type PlatformConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { runOpsCommand } from './cli-commands.ts';

async function main(argv: string[]): Promise<number> {
  let config: PlatformConfig;
  try {
    config = readPlatformConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2; // as any other error of the command
  }
  const pdb = openDatabase(config.database);
  try {
    await migrateToLatest(pdb);
    const r = await runOpsCommand(pdb.db, config.scryptCost, argv);
    process.stdout.write(r.out);
    process.stderr.write(r.err);
    return r.code;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await pdb.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
