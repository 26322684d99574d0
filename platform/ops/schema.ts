/**
 * The operator console's tables as Kysely sees them (migrations 0005, 0006; decision 015): operators, their bearer
 * tokens and roles, and the audit log every area writes (platform/ops/audit.ts). They join the platform's `Database`
 * by interface merging (decision 060); row types are imported from here. Times are unix seconds.
 */
import type { Generated, Selectable } from 'kysely';
import type { Defaulted } from '../db/schema.ts';

/** An operator of the review console (migration 0005); created by `platform/ops/cli.ts`. */
export interface OperatorsTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  disabled: Defaulted<number>;
  created_at: number;
}

/** An operator's bearer token (SHA-256 stored, like `tokens`; core/tokens.ts issues and resolves it). */
export interface OperatorTokensTable {
  id: Generated<number>;
  token_hash: string;
  operator_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A role an operator holds (migration 0006): reviewer | finance | notary | admin. */
export interface OperatorRolesTable {
  operator_id: number;
  role: string;
}

/** One entry of the operator console's audit log, any area (migration 0006, replacing `kyc_audit`). */
export interface OpsAuditTable {
  id: Generated<number>;
  /** Null for changes made with the command line. */
  operator_id: number | null;
  /** kyc | ops | … */
  area: string;
  /** The area's action: approve | reject (kyc), create | roles (ops), … */
  action: string;
  /** What was acted on, as the area names it (kyc: the user id; ops: the operator's username). */
  subject: Defaulted<string>;
  /** The user concerned, if any. */
  user_id: number | null;
  remark: Defaulted<string>;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    operators: OperatorsTable;
    operator_tokens: OperatorTokensTable;
    operator_roles: OperatorRolesTable;
    ops_audit: OpsAuditTable;
  }
}

export type OperatorRow = Selectable<OperatorsTable>;
