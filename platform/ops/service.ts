/**
 * Operator accounts and the console home (docs/decisions/015-operator-console-roles.md): accounts are made and
 * their roles changed only with the command line (platform/ops/cli.ts), each change written to the audit log
 * (area `ops`); the home lists what waits in each queue the operator's roles open.
 */
import type { Kysely } from 'kysely';
import { OPS_PAGE_SIZE, OPS_ROLES, type OpsHomeData, type OpsRole } from '../../contract/ops.ts';
import { hashPassword } from '../account/passwords.ts';
import { isUniqueViolation } from '../account/users.ts';
import type { ScryptCost } from '../config.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { OperatorRow } from './schema.ts';
import { writeAudit } from './audit.ts';
import { OPS_AREA, type OpsQueues } from './queues.ts';

const USERNAME_RE = /^[A-Za-z0-9_.-]{3,60}$/;
/** The roles of an operator created without `--roles`: the KYC review, what every operator did before roles. */
export const DEFAULT_ROLES: readonly OpsRole[] = ['reviewer'];

/**
 * Parses a comma-separated role list (`reviewer,finance`): known roles only, at least one, duplicates dropped,
 * in the order of `OPS_ROLES`.
 * @throws Error with a readable message for an empty list or an unknown role
 */
export function parseRoles(text: string): OpsRole[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(OPS_ROLES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`roles: one or more of ${OPS_ROLES.join(', ')}, comma-separated`);
  }
  return OPS_ROLES.filter((r) => names.includes(r));
}

/** The operator named `username`, or undefined. */
export function findOperator(db: Kysely<Database>, username: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('username', '=', username).executeTakeFirst();
}

/** The roles of operator `operatorId`, in the order of `OPS_ROLES`. */
export async function rolesOf(db: Kysely<Database>, operatorId: number): Promise<OpsRole[]> {
  const rows = await db
    .selectFrom('operator_roles')
    .select('role')
    .where('operator_id', '=', operatorId)
    .execute();
  return OPS_ROLES.filter((r) => rows.some((row) => row.role === r));
}

/** Replaces the roles of `operatorId` (inside the caller's transaction). */
async function writeRoles(
  trx: Kysely<Database>,
  operatorId: number,
  roles: readonly OpsRole[],
): Promise<void> {
  await trx.deleteFrom('operator_roles').where('operator_id', '=', operatorId).execute();
  await trx
    .insertInto('operator_roles')
    .values(roles.map((role) => ({ operator_id: operatorId, role })))
    .execute();
}

/**
 * Creates an operator holding `roles`. Username 3–60 of letters, digits, `_ . -`; password at least 10 characters.
 * @returns 'created', or 'exists' when the username is taken
 * @throws Error with a readable message for a bad username, password or role list
 */
export async function createOperator(
  db: Kysely<Database>,
  username: string,
  password: string,
  cost: ScryptCost,
  roles: readonly OpsRole[] = DEFAULT_ROLES,
): Promise<'created' | 'exists'> {
  if (!USERNAME_RE.test(username)) throw new Error('username: 3-60 letters, digits, "_", "." or "-"');
  if (password.length < 10) throw new Error('password: at least 10 characters');
  const checked = parseRoles(roles.join(','));
  const passwordHash = await hashPassword(password, cost);
  try {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('operators')
        .values({ username, password_hash: passwordHash, created_at: nowSeconds() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeRoles(trx, Number(id), checked);
      await writeAudit(trx, {
        operatorId: null,
        area: OPS_AREA,
        action: 'create',
        subject: username,
        remark: checked.join(','),
      });
    });
    return 'created';
  } catch (err) {
    if (isUniqueViolation(err)) return 'exists';
    throw err;
  }
}

/**
 * Replaces the roles of the operator named `username`; the operator's live tokens see the change at once.
 * @returns 'updated', or 'missing' when there is no such operator
 * @throws Error with a readable message for a bad role list
 */
export async function setOperatorRoles(
  db: Kysely<Database>,
  username: string,
  roles: readonly OpsRole[],
): Promise<'updated' | 'missing'> {
  const checked = parseRoles(roles.join(','));
  return db.transaction().execute(async (trx) => {
    const op = await findOperator(trx, username);
    if (!op) return 'missing';
    await writeRoles(trx, Number(op.id), checked);
    await writeAudit(trx, {
      operatorId: null,
      area: OPS_AREA,
      action: 'roles',
      subject: username,
      remark: checked.join(','),
    });
    return 'updated';
  });
}

/** The console home of an operator: each queue their roles open, with how many wait and the oldest of them. */
export async function consoleHome(
  queues: OpsQueues,
  operator: { username: string; roles: OpsRole[] },
): Promise<OpsHomeData> {
  const visible = queues.visibleTo(operator.roles);
  const waiting = await Promise.all(visible.map((q) => q.waiting(OPS_PAGE_SIZE)));
  return {
    operator: { username: operator.username, roles: operator.roles },
    queues: visible.map((q, i) => ({ area: q.area, ...waiting[i]! })),
  };
}
