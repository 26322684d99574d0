/**
 * The commands of the operator accounts CLI (platform/ops/cli.ts), apart from process I/O so they run in tests on
 * both dialects:
 * - `create <username> <password> [--roles reviewer,finance]` → `operator <username> created` (exit 0), or
 *   `operator <username> exists` (exit 1); without `--roles` the operator is a `reviewer`;
 * - `roles <username> <role,role…>` replaces the roles → `operator <username> roles <roles>` (exit 0), or
 *   `operator <username> not found` (exit 1);
 * - `roles <username>` prints them (exit 0 / 1 the same way).
 * Bad arguments answer the usage, an unknown role or a bad username or password its message (exit 2).
 */
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { OPS_ROLES } from '../../contract/ops.ts';
import type { ScryptCost } from '../config.ts';
import type { Database } from '../db/schema.ts';
import {
  DEFAULT_ROLES,
  createOperator,
  findOperator,
  parseRoles,
  rolesOf,
  setOperatorRoles,
} from './service.ts';

export const USAGE = [
  'usage: ops create <username> <password> [--roles <roles>]   (password at least 10 characters)',
  '       ops roles <username> [<roles>]                        (show or replace the roles)',
  `roles: comma-separated, of ${OPS_ROLES.join(', ')}; default ${DEFAULT_ROLES.join(',')}`,
].join('\n');

/** What a command printed and its exit code. */
export interface CommandResult {
  code: number;
  out: string;
  err: string;
}

const done = (code: number, out: string): CommandResult => ({ code, out: `${out}\n`, err: '' });
const failed = (err: string): CommandResult => ({ code: 2, out: '', err: `${err}\n` });

/** Runs one CLI command (`argv` without the program name) against `db`. Never throws. */
export async function runOpsCommand(
  db: Kysely<Database>,
  cost: ScryptCost,
  argv: string[],
): Promise<CommandResult> {
  let values: { roles?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { roles: { type: 'string' } },
      allowPositionals: true,
    }));
  } catch {
    return failed(USAGE);
  }
  const [cmd, username, third, ...extra] = positionals;
  try {
    if (cmd === 'create' && username && third && extra.length === 0) {
      const roles = values.roles === undefined ? DEFAULT_ROLES : parseRoles(values.roles);
      const r = await createOperator(db, username, third, cost, roles);
      return done(r === 'created' ? 0 : 1, `operator ${username} ${r}`);
    }
    if (cmd === 'roles' && username && extra.length === 0 && values.roles === undefined) {
      if (third !== undefined) {
        const r = await setOperatorRoles(db, username, parseRoles(third));
        return r === 'updated'
          ? done(0, `operator ${username} roles ${parseRoles(third).join(',')}`)
          : done(1, `operator ${username} not found`);
      }
      const op = await findOperator(db, username);
      return op
        ? done(0, `operator ${username} roles ${(await rolesOf(db, op.id)).join(',')}`)
        : done(1, `operator ${username} not found`);
    }
    return failed(USAGE);
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
}
