/**
 * Operator accounts for tests, made the way operators are (decision 011): the project's CLI,
 * `platform/ops/cli.ts create`, against a server's data directory (SQLite, the server may be running).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { childEnvironment } from './environment.ts';

/**
 * Creates an operator with random credentials and `roles` (comma-separated; default: the CLI's, reviewer) in the
 * platform whose DATA_DIR is `dataDir`. @returns the credentials @throws when the CLI does not report it created
 */
export function createOperatorAt(dataDir: string, roles?: string): { username: string; password: string } {
  const username = `op-${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'platform/ops/cli.ts',
      'create',
      username,
      password,
      ...(roles ? ['--roles', roles] : []),
    ],
    { env: childEnvironment({ DATA_DIR: dataDir, APP_ENV: 'test' }), encoding: 'utf8' },
  );
  if (!out.includes(`operator ${username} created`)) throw new Error(`the ops CLI said: ${out}`);
  return { username, password };
}
