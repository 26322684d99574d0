/**
 * Delivery address calls (issue 4; contract `AccountAreaPaths`; spec 02 §3 Address, §5 Addresses, §7 Addresses):
 * - `GET /api/User/district` → the region tree (regions.ts), public, `Cache-Control: public, max-age=86400` with a
 *   strong ETag (a matching If-None-Match answers 304);
 * - `GET /api/User/addressList` → Address[] of the caller, default first, then oldest first;
 * - `POST /api/User/addAddress` AddressBody → Address (添加成功); at most 5 per user (最多保存5个地址), enforced in a
 *   per-user transaction so concurrent requests cannot pass the limit together;
 * - `POST /api/User/editAddress` AddressBody & {id} → Address (修改成功);
 * - `POST /api/User/delAddress {id}`.
 * `status` 1 marks the one default: saving an address as default clears the others in the same transaction.
 * The region must be a path of the tree (请选择所在地区 otherwise) and not in Hong Kong, Macau or Taiwan (spec 02 §9:
 * 暂不支持寄送至港澳台地区). Another user's ids answer 404 地址不存在.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AccountAreaMsg,
  AccountAreaPaths,
  AddressBody,
  AddressMsg,
  ApiCode,
  IdBody,
  MAX_ADDRESSES,
  Msg,
  NO_SHIPPING_PROVINCE_CODES,
  ok,
  type Address,
} from '../../contract/index.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { AddressRow, Database } from '../db/schema.ts';
import { isValidRegion, regionPayload } from './regions.ts';

/** Seconds a client may cache the region tree. */
export const DISTRICT_MAX_AGE = 86400;

function toAddress(r: AddressRow): Address {
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

/** Parses and checks an address body: the contract schema, then the region against the tree. */
function parseAddress(body: unknown): AddressBody {
  const a = parseInput(AddressBody, body);
  const { tree } = regionPayload();
  if (!isValidRegion(tree, a.province, a.city, a.area))
    throw new ApiError(ApiCode.BAD_REQUEST, AddressMsg.regionRequired);
  const code = tree.find((p) => p.name === a.province)?.code ?? '';
  if (NO_SHIPPING_PROVINCE_CODES.includes(code))
    throw new ApiError(ApiCode.BAD_REQUEST, AddressMsg.noShipping);
  return a;
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

/** Registers the address routes (needs the services and auth plugins). */
export async function addressRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  app.get(AccountAreaPaths.district, async (request, reply) => {
    const { tree, etag } = regionPayload();
    reply.header('cache-control', `public, max-age=${DISTRICT_MAX_AGE}`).header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return ok(tree);
  });

  app.get(AccountAreaPaths.addressList, { preHandler: app.requireUser }, async (request) => {
    const rows = await db
      .selectFrom('addresses')
      .selectAll()
      .where('user_id', '=', currentUser(request).id)
      .orderBy('status', 'desc')
      .orderBy('id', 'asc')
      .execute();
    return ok(rows.map(toAddress));
  });

  app.post(AccountAreaPaths.addAddress, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const a = parseAddress(request.body);
    const now = nowSeconds();
    const row = await withUserTransaction(app.pdb, user.id, async (trx) => {
      const { n } = await trx
        .selectFrom('addresses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_ADDRESSES) throw new ApiError(ApiCode.BAD_REQUEST, AddressMsg.tooMany);
      if (a.status === 1) await clearDefault(trx, user.id);
      return trx
        .insertInto('addresses')
        .values({ user_id: user.id, ...addressValues(a), created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return ok(toAddress(row), Msg.added);
  });

  app.post(AccountAreaPaths.editAddress, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { id } = parseInput(IdBody, request.body);
    const a = parseAddress(request.body);
    const row = await withUserTransaction(app.pdb, user.id, async (trx) => {
      const owned = await trx
        .selectFrom('addresses')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!owned) throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.addressNotFound);
      if (a.status === 1) await clearDefault(trx, user.id);
      return trx
        .updateTable('addresses')
        .set({ ...addressValues(a), updated_at: nowSeconds() })
        .where('id', '=', id)
        .where('user_id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return ok(toAddress(row), Msg.modified);
  });

  app.post(AccountAreaPaths.delAddress, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { id } = parseInput(IdBody, request.body);
    const r = await db
      .deleteFrom('addresses')
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.addressNotFound);
    return ok(null, '删除成功');
  });
}
