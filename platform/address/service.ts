/**
 * Delivery addresses (spec 02 §3 Address, §5 Addresses, §9): a user's addresses, default first; at most
 * `MAX_ADDRESSES` (5) per user, enforced in a per-user transaction so concurrent requests cannot pass the limit
 * together; `status` 1 marks the one default (saving a default clears the others in the same transaction); the region
 * must be a path of the GB/T 2260 tree and outside Hong Kong, Macau and Taiwan. Another user's ids read as not found.
 */
import type { Kysely } from 'kysely';
import {
  type Address,
  type AddressBody,
  AddressMsg,
  MAX_ADDRESSES,
  NO_SHIPPING_PROVINCE_CODES,
} from '../../contract/address.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { addOwnedWithinLimit, deleteOwned, requireOwned } from '../core/owned-rows.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { AddressRow } from './schema.ts';
import { isValidRegion, regionPayload } from './regions.ts';

/** The contract shape of a row. */
export function toAddress(r: AddressRow): Address {
  return {
    id: Number(r.id),
    name: r.name,
    province: r.province,
    city: r.city,
    area: r.area,
    address: r.address,
    phoneNumber: r.phone_number,
    email: r.email,
    status: r.status ? 1 : 0,
  };
}

/**
 * Checks the region of a parsed address against the tree.
 * @throws ApiError 400 `regionRequired` off the tree, `noShipping` in Hong Kong, Macau or Taiwan (spec 02 §9)
 */
export function checkRegion(a: AddressBody): void {
  const { tree } = regionPayload();
  if (!isValidRegion(tree, a.province, a.city, a.area))
    throw new ApiError(ApiCode.BAD_REQUEST, AddressMsg.regionRequired);
  const code = tree.find((p) => p.name === a.province)?.code ?? '';
  if (NO_SHIPPING_PROVINCE_CODES.includes(code))
    throw new ApiError(ApiCode.BAD_REQUEST, AddressMsg.noShipping);
}

function addressValues(a: AddressBody) {
  return {
    name: a.name ?? '',
    province: a.province,
    city: a.city,
    area: a.area,
    address: a.address ?? '',
    phone_number: a.phoneNumber,
    email: a.email,
    status: a.status === 1 ? 1 : 0,
  };
}

async function clearDefault(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx.updateTable('addresses').set({ status: 0 }).where('user_id', '=', userId).execute();
}

/** The addresses of `userId`, the default first, then oldest first. */
export async function listAddresses(db: Kysely<Database>, userId: number): Promise<Address[]> {
  const rows = await db
    .selectFrom('addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('status', 'desc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toAddress);
}

/**
 * Adds an address for `userId` (`now` unix seconds).
 * @throws ApiError 400 `tooMany` at MAX_ADDRESSES
 */
export async function addAddress(
  pdb: PlatformDb,
  userId: number,
  a: AddressBody,
  now: number,
): Promise<Address> {
  const limit = { max: MAX_ADDRESSES, message: AddressMsg.tooMany };
  const row = await addOwnedWithinLimit(pdb, 'addresses', userId, limit, async (trx) => {
    if (a.status === 1) await clearDefault(trx, userId);
    return trx
      .insertInto('addresses')
      .values({ user_id: userId, ...addressValues(a), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toAddress(row);
}

/** Replaces address `id` of `userId` (`now` unix seconds). @throws ApiError 404 when it is not theirs */
export async function editAddress(
  pdb: PlatformDb,
  userId: number,
  id: number,
  a: AddressBody,
  now: number,
): Promise<Address> {
  const row = await withUserTransaction(pdb, userId, async (trx) => {
    await requireOwned(trx, 'addresses', userId, id, AddressMsg.addressNotFound);
    if (a.status === 1) await clearDefault(trx, userId);
    return trx
      .updateTable('addresses')
      .set({ ...addressValues(a), updated_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toAddress(row);
}

/** Deletes address `id` of `userId`. @throws ApiError 404 when it is not theirs */
export function deleteAddress(db: Kysely<Database>, userId: number, id: number): Promise<void> {
  return deleteOwned(db, 'addresses', userId, id, AddressMsg.addressNotFound);
}
