/**
 * The operator console's one audit log, shared by every area (docs/decisions/015-operator-console-roles.md): an
 * area writes an entry inside the transaction of the action it records; the console lists them newest first,
 * narrowed to the areas the reader's roles open.
 */
import type { Kysely } from 'kysely';
import { type AuditListData, OPS_PAGE_SIZE } from '../../contract/ops.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';

/** One entry to record. */
export interface AuditRecord {
  /** The operator who acted; null for the command line. */
  operatorId: number | null;
  /** The area (`kyc`, `ops`, …). */
  area: string;
  /** The area's action (`approve`, `reject`, `create`, `roles`, …). */
  action: string;
  /** What was acted on, as the area names it (at most 100 characters). */
  subject: string;
  /** The user concerned, if any. */
  userId?: number | null;
  /** Cut to 255 characters. */
  remark?: string;
}

/** Writes an audit entry. Pass the transaction of the action so both commit together. */
export async function writeAudit(
  db: Kysely<Database>,
  record: AuditRecord,
  now = nowSeconds(),
): Promise<void> {
  await db
    .insertInto('ops_audit')
    .values({
      operator_id: record.operatorId,
      area: record.area,
      action: record.action,
      subject: record.subject.slice(0, 100),
      user_id: record.userId ?? null,
      remark: (record.remark ?? '').slice(0, 255),
      created_at: now,
    })
    .execute();
}

/**
 * One page of the audit log, newest first.
 * @param areas the areas to list; null for every area
 * @param page 1-based, {@link OPS_PAGE_SIZE} entries a page
 */
export async function listAudit(
  db: Kysely<Database>,
  areas: readonly string[] | null,
  page: number,
): Promise<AuditListData> {
  if (areas?.length === 0) return { list: [], count: 0 };
  let base = db.selectFrom('ops_audit');
  if (areas) base = base.where('ops_audit.area', 'in', areas);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('operators', 'operators.id', 'ops_audit.operator_id')
      .leftJoin('users', 'users.id', 'ops_audit.user_id')
      .selectAll('ops_audit')
      .select(['operators.username', 'users.mobile'])
      .orderBy('ops_audit.id', 'desc')
      .limit(OPS_PAGE_SIZE)
      .offset((page - 1) * OPS_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      area: r.area,
      operator: r.username ?? '',
      action: r.action,
      subject: r.subject,
      userId: r.user_id === null ? null : Number(r.user_id),
      mobile: r.mobile ?? '',
      remark: r.remark,
      at: formatBeijing(Number(r.created_at)),
    })),
    count: Number(total.n),
  };
}
