/**
 * Users: creation, lookup, the UserInfo shape of the contract, and the demo account seeded on first start
 * (the README's verified personal account 13800138000).
 */
import type { Kysely } from 'kysely';
import type { UserInfo } from '../../contract/account.ts';
import type { ScryptCost } from '../config.ts';
import { randomFromAlphabet } from '../core/crypto.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { NewUser, UserRow } from './schema.ts';
import { hashPassword } from './passwords.ts';

/** Mobile of the seeded demo account. */
export const DEMO_MOBILE = '13800138000';

const EXTRACT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** A random 8-character extraction code (spec 01 §2.5; ~39 bits, and checkNo is rate limited). */
export function newExtractCode(): string {
  return randomFromAlphabet(EXTRACT_CODE_ALPHABET, 8);
}

/** The user with `mobile`, or undefined. */
export function findUserByMobile(db: Kysely<Database>, mobile: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

/** True when `err` is a unique-constraint violation on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/.test(e?.message ?? '')
  );
}

/**
 * Inserts a user. Defaults: not verified ('1'), no account type, no auth type, 0 points, a fresh extraction code.
 * @returns the new row's id, or null when the mobile is already registered
 */
export async function createUser(
  db: Kysely<Database>,
  fields: { mobile: string; passwordHash: string } & Partial<Omit<NewUser, 'mobile' | 'password_hash'>>,
): Promise<number | null> {
  const { mobile, passwordHash, ...rest } = fields;
  try {
    const row = await db
      .insertInto('users')
      .values({
        mobile,
        password_hash: passwordHash,
        user_status: '1',
        account_type: 0,
        auth_type: 0,
        user_name: '',
        points: 0,
        extract_code: newExtractCode(),
        check_remark: '',
        created_at: nowSeconds(),
        ...rest,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/** Maps a user row to the contract's UserInfo (spec 02 §3); `newsNum` is the unread notification count. */
export function toUserInfo(u: UserRow, newsNum = 0): UserInfo {
  const status = [0, 1, 2].includes(u.account_type) ? (u.account_type as 0 | 1 | 2) : 0;
  const authType = [0, 1, 3].includes(u.auth_type) ? (u.auth_type as 0 | 1 | 3) : 0;
  const userStatus = (['1', '2', '3', '4'] as const).find((s) => s === u.user_status) ?? '1';
  return {
    mobile: u.mobile,
    userName: u.user_name,
    userStatus,
    status,
    authType,
    points: u.points,
    newsNum,
    extractCode: u.extract_code,
    checkRemark: u.check_remark,
  };
}

/**
 * Creates the demo account (verified personal: userStatus '3', status 1, authType 1) when it does not exist.
 * @returns 'created' or 'exists'
 */
export async function seedDemoAccount(
  db: Kysely<Database>,
  password: string,
  cost: ScryptCost,
): Promise<'created' | 'exists'> {
  if (await findUserByMobile(db, DEMO_MOBILE)) return 'exists';
  const id = await createUser(db, {
    mobile: DEMO_MOBILE,
    passwordHash: await hashPassword(password, cost),
    user_status: '3',
    account_type: 1,
    auth_type: 1,
    user_name: '演示用户',
  });
  return id === null ? 'exists' : 'created';
}
