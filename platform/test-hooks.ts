/**
 * Test-only routes, registered only when `config.testHooks` (TEST_HOOKS=1, never in production — config.ts refuses):
 * `GET /api/__test/captcha?key=` → `{code}` the captcha answer; `POST /api/__test/expireTokens {mobile}` expires
 * every token of that user; `POST /api/__test/ageSms {mobile}` moves that mobile's SMS send times back by the
 * one-minute interval (a test clock, so a flow may send a second code at once); `POST /api/__test/setUserStatus
 * {mobile, userStatus, status?, authType?}` sets a user's verification state (setup for flows behind the KYC gate);
 * `POST /api/__test/crashWorker` throws an uncaught exception on the next tick when the platform runs in a worker
 * thread (what the gateway does when its embedded platform dies; refused in the gateway's own thread). They let e2e
 * tests pass the captcha and exercise session expiry (spec 01 §8, code 408).
 */
import { isMainThread } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiCode, ok } from '../contract/envelope.ts';
import { peekCaptcha } from './account/captcha.ts';
import { SMS_INTERVAL_SECONDS } from './account/sms.ts';
import { ApiError, parseInput } from './core/errors.ts';
import { nowSeconds } from './core/time.ts';
import { newApiCredentials } from './kyc/service.ts';

/** Paths of the test hooks (only registered with TEST_HOOKS=1). */
export const TestHookPaths = {
  captcha: '/api/__test/captcha',
  expireTokens: '/api/__test/expireTokens',
  ageSms: '/api/__test/ageSms',
  setUserStatus: '/api/__test/setUserStatus',
  crashWorker: '/api/__test/crashWorker',
} as const;

/** Registers the test hooks. */
export async function testHookRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  app.post(TestHookPaths.crashWorker, async () => {
    if (isMainThread) throw new ApiError(ApiCode.NOT_FOUND, 'the platform runs in the main thread');
    setImmediate(() => {
      throw new Error('test hook: platform worker crash');
    });
    return ok(null);
  });
  app.get(TestHookPaths.captcha, async (request) => {
    const { key } = parseInput(z.object({ key: z.string().min(1) }), request.query);
    const code = await peekCaptcha(db, key);
    if (code === null) throw new ApiError(ApiCode.NOT_FOUND, 'captcha not found');
    return ok({ code });
  });
  app.post(TestHookPaths.expireTokens, async (request) => {
    const { mobile } = parseInput(z.object({ mobile: z.string().min(1) }), request.body);
    const user = await db.selectFrom('users').select('id').where('mobile', '=', mobile).executeTakeFirst();
    if (!user) throw new ApiError(ApiCode.NOT_FOUND, 'user not found');
    const r = await db
      .updateTable('tokens')
      .set({ expires_at: nowSeconds() - 1 })
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    return ok({ expired: Number(r.numUpdatedRows) });
  });
  // Sets a user's verification state directly: e2e setup for flows other than KYC itself (the verification
  // gate of docs/decisions/011-kyc-review.md).
  app.post(TestHookPaths.setUserStatus, async (request) => {
    const body = parseInput(
      z.object({
        mobile: z.string().min(1),
        userStatus: z.enum(['1', '2', '3', '4']),
        status: z.coerce.number().int().min(0).max(2).default(1),
        authType: z.coerce.number().int().min(0).max(3).default(1),
      }),
      request.body,
    );
    const r = await db
      .updateTable('users')
      .set({ user_status: body.userStatus, account_type: body.status, auth_type: body.authType })
      .where('mobile', '=', body.mobile)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new ApiError(ApiCode.NOT_FOUND, 'user not found');
    // A verified enterprise has an AppID, as approval gives it (kyc/ops-service.ts); its key comes from rotation.
    if (body.userStatus === '3' && body.status === 2) {
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('mobile', '=', body.mobile)
        .executeTakeFirstOrThrow();
      const profile = await db
        .selectFrom('kyc_profiles')
        .select('app_id')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!profile) {
        await db
          .insertInto('kyc_profiles')
          .values({
            user_id: user.id,
            kind: 'enterprise',
            auth_type: 0,
            fields_json: '{}',
            submitted_at: nowSeconds(),
            app_id: newApiCredentials().appId,
          })
          .execute();
      } else if (!profile.app_id) {
        await db
          .updateTable('kyc_profiles')
          .set({ app_id: newApiCredentials().appId })
          .where('user_id', '=', user.id)
          .execute();
      }
    }
    return ok(null);
  });
  app.post(TestHookPaths.ageSms, async (request) => {
    const { mobile } = parseInput(z.object({ mobile: z.string().min(1) }), request.body);
    const r = await db
      .updateTable('sms_codes')
      .set((eb) => ({ sent_at: eb('sent_at', '-', SMS_INTERVAL_SECONDS) }))
      .where('mobile', '=', mobile)
      .executeTakeFirst();
    return ok({ aged: Number(r.numUpdatedRows) });
  });
}
