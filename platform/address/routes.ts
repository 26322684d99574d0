/**
 * Delivery address calls (contract `AddressPaths`; spec 02 §3 Address, §5 Addresses, §7 Addresses):
 * - `GET /api/User/district` → the region tree (regions.ts), public, `Cache-Control: public, max-age=86400` with a
 *   strong ETag (a matching If-None-Match answers 304);
 * - `GET /api/User/addressList` → Address[] of the caller, default first, then oldest first;
 * - `POST /api/User/addAddress` AddressBody → Address (添加成功); at most 5 per user (最多保存5个地址);
 * - `POST /api/User/editAddress` AddressBody & {id} → Address (修改成功);
 * - `POST /api/User/delAddress {id}`.
 * The region must be a path of the tree (请选择所在地区 otherwise) and not in Hong Kong, Macau or Taiwan (spec 02 §9:
 * 暂不支持寄送至港澳台地区). Another user's ids answer 404 地址不存在. The rules are in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { AddressBody, AddressMsg, AddressPaths } from '../../contract/address.ts';
import { ok } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { IdBody } from '../../contract/validators.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { regionPayload } from './regions.ts';
import { addAddress, checkRegion, deleteAddress, editAddress, listAddresses } from './service.ts';

/** Seconds a client may cache the region tree. */
export const DISTRICT_MAX_AGE = 86400;

/** Parses and checks an address body: the contract schema, then the region against the tree. */
function parseAddress(body: unknown): AddressBody {
  const a = parseInput(AddressBody, body);
  checkRegion(a);
  return a;
}

/** Registers the address routes (needs the services and auth plugins). */
export async function addressRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  app.get(AddressPaths.district, async (request, reply) => {
    const { tree, etag } = regionPayload();
    reply.header('cache-control', `public, max-age=${DISTRICT_MAX_AGE}`).header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return ok(tree);
  });

  app.get(AddressPaths.addressList, { preHandler: app.requireUser }, async (request) =>
    ok(await listAddresses(db, currentUser(request).id)),
  );

  app.post(AddressPaths.addAddress, { preHandler: app.requireUser }, async (request) => {
    const a = parseAddress(request.body);
    return ok(await addAddress(app.pdb, currentUser(request).id, a, nowSeconds()), Msg.added);
  });

  app.post(AddressPaths.editAddress, { preHandler: app.requireUser }, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    const a = parseAddress(request.body);
    return ok(await editAddress(app.pdb, currentUser(request).id, id, a, nowSeconds()), Msg.modified);
  });

  app.post(AddressPaths.delAddress, { preHandler: app.requireUser }, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    await deleteAddress(db, currentUser(request).id, id);
    return ok(null, AddressMsg.deleted);
  });
}
