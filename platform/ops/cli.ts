/**
 * Operator accounts CLI (issue 5 item 5): `node --import tsx platform/ops/cli.ts create <username> <password>`
 * (also `npm run ops -- create <username> <password>`). Reads the platform's environment (DATA_DIR, DATABASE_URL,
 * SCRYPT_*), migrates the database if needed, creates the operator and prints `operator <username> created`
 * (exit 0), or `operator <username> exists` (exit 1); bad arguments print the usage (exit 2).
 */
import { loadPlatformConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { createOperator } from './operators.ts';

const USAGE = 'usage: ops create <username> <password>   (password at least 10 characters)';

async function main(argv: string[]): Promise<number> {
  const [cmd, username, password] = argv;
  if (cmd !== 'create' || !username || !password) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadPlatformConfig();
  const pdb = openDatabase(config.database);
  try {
    await migrateToLatest(pdb);
    const r = await createOperator(pdb.db, username, password, config.scryptCost);
    process.stdout.write(`operator ${username} ${r}\n`);
    return r === 'created' ? 0 : 1;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await pdb.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
