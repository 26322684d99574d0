/**
 * Alipay face verification on the platform (spec 02 §4 face flow; docs/decisions/011-kyc-review.md): the face
 * certifier service (the real Alipay when configured, else the sandbox gateway of alipay-sandbox.ts started on
 * loopback), starting a certification, and {@link pollCertification}, the one place a certification's result is applied.
 *
 * Applying is idempotent across processes: the state moves `open → passed | failed | expired` with a conditional
 * UPDATE (`where state = 'open'`) inside the transaction that also verifies the user, so two pollers (two
 * gateways, or a gateway and the browser's aliQuery) never apply a result twice, and a restart loses nothing: the
 * open certifications are rows, polled again by whoever asks next.
 */
import type { FastifyInstance } from 'fastify';
import { KycMsg } from '../../contract/kyc.ts';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { FaceCertificationRow, FaceState } from './schema.ts';
import { notify } from '../notification/notifications.ts';
import { AlipayFace, AlipayFaceError, type FaceCertifier } from './alipay-face.ts';
import { startAlipaySandbox } from './alipay-sandbox-server.ts';
import { idNumberKey, isIdKeyViolation } from './id-number.ts';
import { profileFields } from './profile.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alipay face certification (real or sandbox). */
    face: FaceCertifier;
  }
}

/** Seconds a certification stays open (the certify URL's timestamp is accepted 15 minutes). */
export const FACE_TTL_SECONDS = 15 * 60;
/** Notification on success (spec 02 §4 banner text for the face method). */
export const FACE_PASSED_NEWS = KycMsg.facePassedNews;

/**
 * Registers `app.face`: `opts.face` when given (tests), the real Alipay when `config.alipay` is set, else the
 * sandbox gateway listening on 127.0.0.1 (closed with the app). Needs the services plugin.
 */
export const faceServicePlugin = fp(
  async (app: FastifyInstance, opts: { face?: FaceCertifier }) => {
    const returnUrl = `${app.config.publicUrl}/personage-face-kyc`;
    if (opts.face) {
      app.decorate('face', opts.face);
    } else if (app.config.alipay) {
      app.decorate('face', new AlipayFace(app.config.alipay, { returnUrl }));
    } else {
      const sandbox = await startAlipaySandbox({
        dataDir: app.config.dataDir,
        logger: app.log.child({ module: 'alipay-sandbox' }, { level: 'warn' }),
      });
      app.addHook('onClose', () => sandbox.close());
      app.decorate('face', new AlipayFace(sandbox.clientConfig(), { returnUrl }));
      app.log.info({ url: sandbox.url }, 'Alipay sandbox gateway (face verification) listening');
    }
  },
  { name: 'cunzheng-face', dependencies: ['cunzheng-services'] },
);

/** The outcome of one poll: the certification's state after it, and whether this poll applied it. */
export interface PollOutcome {
  state: FaceState;
  /** True only for the one poll that moved the certification out of `open`. */
  applied: boolean;
}

/**
 * Moves an open certification forward once: expired when past `expires_at`; otherwise asks Alipay and applies a
 * pass (user verified: userStatus '3', personal, face; notification) or a failure. A certification no longer open
 * is returned as is, without asking. Transport errors leave it open (the next poll retries).
 * @returns the state after this poll and whether this poll applied it
 */
export async function pollCertification(
  app: FastifyInstance,
  row: FaceCertificationRow,
): Promise<PollOutcome> {
  if (row.state !== 'open') return { state: row.state, applied: false };
  const now = nowSeconds();
  if (now > Number(row.expires_at)) return finish(app.pdb.db, row, 'expired', 'timeout', now);
  let result;
  try {
    result = await app.face.query(row.certify_id);
  } catch (err) {
    if (err instanceof AlipayFaceError && err.kind === 'rejected') {
      return finish(app.pdb.db, row, 'failed', err.subCode ?? 'rejected', now);
    }
    app.log.warn({ err, certification: row.id }, 'face query failed; retried at the next poll');
    return { state: 'open', applied: false };
  }
  if (result.passed === null) return { state: 'open', applied: false };
  if (!result.passed) return finish(app.pdb.db, row, 'failed', result.failReason ?? '', now);
  try {
    return await applyPass(app, row, now);
  } catch (err) {
    // the number became live on another account meanwhile (one ID number, one personal account)
    if (isIdKeyViolation(err)) return finish(app.pdb.db, row, 'failed', ID_TAKEN_REASON, now);
    throw err;
  }
}

/** Failure reason recorded when the face passed but the ID number is live on another account. */
export const ID_TAKEN_REASON = 'idTaken';

/** Applies a passed certification once: the user verified, the profile live with its ID number's index key. */
async function applyPass(app: FastifyInstance, row: FaceCertificationRow, now: number): Promise<PollOutcome> {
  const profile = await app.pdb.db
    .selectFrom('kyc_profiles')
    .selectAll()
    .where('user_id', '=', row.user_id)
    .executeTakeFirst();
  const idCard = profileFields(profile).idCard;
  const idKey = idCard ? await idNumberKey(app.config.dataDir, idCard) : null;
  return app.pdb.db.transaction().execute(async (trx) => {
    if (idKey) {
      const other = await trx
        .selectFrom('kyc_profiles')
        .select('user_id')
        .where('id_key', '=', idKey)
        .where('user_id', '!=', Number(row.user_id))
        .executeTakeFirst();
      if (other) return finish(trx, row, 'failed', ID_TAKEN_REASON, now);
    }
    const moved = await trx
      .updateTable('face_certifications')
      .set({ state: 'passed', finished_at: now })
      .where('id', '=', row.id)
      .where('state', '=', 'open')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return { state: await currentState(trx, row.id), applied: false };
    await trx
      .updateTable('kyc_profiles')
      .set({ reviewed_at: now, id_key: idKey })
      .where('user_id', '=', row.user_id)
      .execute();
    await trx
      .updateTable('users')
      .set({
        user_status: '3',
        account_type: 1,
        auth_type: 3,
        user_name: profileFields(profile).userName ?? '',
        check_remark: '',
      })
      .where('id', '=', row.user_id)
      .execute();
    await notify(trx, Number(row.user_id), FACE_PASSED_NEWS, now);
    app.log.info({ userId: row.user_id, certification: row.id }, 'face verification passed');
    return { state: 'passed' as const, applied: true };
  });
}

async function currentState(db: Kysely<Database>, id: number): Promise<FaceState> {
  const r = await db
    .selectFrom('face_certifications')
    .select('state')
    .where('id', '=', id)
    .executeTakeFirst();
  return r?.state ?? 'expired';
}

async function finish(
  db: Kysely<Database>,
  row: FaceCertificationRow,
  state: 'failed' | 'expired',
  reason: string,
  now: number,
): Promise<PollOutcome> {
  const r = await db
    .updateTable('face_certifications')
    .set({ state, fail_reason: reason.slice(0, 255), finished_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1
    ? { state, applied: true }
    : { state: await currentState(db, row.id), applied: false };
}

/**
 * Polls every open certification once (the gateway's job calls this every 3 s through `/api/internal/face/poll`).
 * @returns how many were polled, and how many this round applied (finished; of which passed)
 */
export async function pollOpenCertifications(
  app: FastifyInstance,
  limit = 200,
): Promise<{ polled: number; passed: number; finished: number }> {
  const rows = await app.pdb.db
    .selectFrom('face_certifications')
    .selectAll()
    .where('state', '=', 'open')
    .orderBy('id')
    .limit(limit)
    .execute();
  let passed = 0;
  let finished = 0;
  for (const row of rows) {
    const { state, applied } = await pollCertification(app, row);
    if (applied) finished++;
    if (applied && state === 'passed') passed++;
  }
  return { polled: rows.length, passed, finished };
}
