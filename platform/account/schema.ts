/**
 * The account area's tables as Kysely sees them (migrations 0001, 0004): users, their bearer tokens, captchas and
 * SMS codes (spec 01 §3 Account). They join the platform's `Database` by interface merging (decision 060); row types
 * are imported from here. Times are unix seconds.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  mobile: string;
  /** Self-describing scrypt hash, see account/passwords.ts. */
  password_hash: string;
  /** '1' not verified, '2' under review, '3' verified, '4' failed (spec 02 §4). */
  user_status: string;
  /** Account type: 0 none, 1 personal, 2 enterprise. */
  account_type: number;
  /** 0 none, 1 photo, 3 face. */
  auth_type: number;
  user_name: string;
  points: number;
  extract_code: string;
  check_remark: string;
  created_at: number;
}

/** A user's bearer token (core/tokens.ts issues and resolves it; deleted with the user). */
export interface TokensTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface CaptchasTable {
  key: string;
  /** Lower-cased answer. */
  answer: string;
  expires_at: number;
  consumed: number;
  created_at: number;
}

export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  purpose: 'register' | 'reset';
  code: string;
  sent_at: number;
  expires_at: number;
  attempts: number;
  consumed: number;
}

declare module '../db/schema.ts' {
  interface Database {
    users: UsersTable;
    tokens: TokensTable;
    captchas: CaptchasTable;
    sms_codes: SmsCodesTable;
  }
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
