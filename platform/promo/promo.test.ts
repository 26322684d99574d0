/**
 * Promotion codes (兑换码) through `fastify.inject` on SQLite and PostgreSQL (docs/decisions/062-promotion-codes.md,
 * 057-points-api.md, 015-operator-console-roles.md): finance mints, reads and disables batches (403 without the
 * role, every action audited, amounts decimal digits only); a user redeems a code as typed (case, blanks and dashes
 * do not matter) and the points page shows the credit as 兑换码; a single-use code credits once, a limited-use code
 * once per user up to its limit, also under 50 concurrent redemptions; expired, disabled, used-up and already
 * redeemed codes are refused with their messages; unknown codes are throttled per user; migration 0028 up and down.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { OpsMsg } from '../../contract/ops.ts';
import { PointsPaths, type PointsHistoryData } from '../../contract/points.ts';
import {
  normalizePromoCode,
  PROMO_ATTEMPTS_MAX,
  PROMO_CODE_RE,
  PromoMsg,
  PromoOpsPaths,
  PromoPaths,
  type PromoBatchDetail,
  type PromoBatchListData,
  type RedeemData,
} from '../../contract/promo.ts';
import { userFactory } from '../../tests/support/account.ts';
import { balances, userIdOf } from '../../tests/support/billing.ts';
import { operatorToken } from '../../tests/support/invoice.ts';
import { forEachDialect, get, post, withScratchDatabase } from '../../tests/support/platform.ts';
import { dayFromNow, mintBody, mintThroughApi } from '../../tests/support/promo.ts';

forEachDialect('promotion codes', (h) => {
  const newUser = userFactory(h);
  let finance = '';
  let reviewer = '';
  beforeAll(async () => {
    finance = await operatorToken(h, 'promo-fin', 'finance');
    reviewer = await operatorToken(h, 'promo-rev', 'reviewer');
  });

  const redeem = (token: string, code: string) => post<RedeemData>(h.app, PromoPaths.redeem, { code }, token);
  const codeOf = (d: PromoBatchDetail, i = 0) => normalizePromoCode(d.codes[i]!.code);
  const usesOf = async (code: string) =>
    Number(
      (
        await h.app.pdb.db
          .selectFrom('promo_codes')
          .select('uses')
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).uses,
    );
  const redemptionsOf = async (code: string) =>
    h.app.pdb.db
      .selectFrom('promo_redemptions')
      .innerJoin('promo_codes', 'promo_codes.id', 'promo_redemptions.code_id')
      .select(['promo_redemptions.id', 'promo_redemptions.user_id'])
      .where('promo_codes.code', '=', code)
      .execute();
  const promoEntries = async (userId: number) =>
    h.app.pdb.db
      .selectFrom('points_journal')
      .select(['points', 'source_ref'])
      .where('user_id', '=', userId)
      .where('source_kind', '=', 'promo')
      .execute();
  const audits = (action: string) =>
    h.app.pdb.db
      .selectFrom('ops_audit')
      .selectAll()
      .where('area', '=', 'promo')
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  describe('console', () => {
    it('answers 403 无权访问 to an operator without finance, on every call', async () => {
      const d = await mintThroughApi(h.app, finance);
      const calls = [
        get(h.app, PromoOpsPaths.batches, {}, reviewer),
        get(h.app, PromoOpsPaths.batch, { id: d.batch.id }, reviewer),
        post(h.app, PromoOpsPaths.mint, mintBody(), reviewer),
        post(h.app, PromoOpsPaths.disable, { id: d.batch.id }, reviewer),
      ];
      for (const r of await Promise.all(calls)) expect([r.code, r.msg]).toEqual([403, OpsMsg.forbidden]);
      const again = await get<PromoBatchDetail>(h.app, PromoOpsPaths.batch, { id: d.batch.id }, finance);
      expect(again.data.batch.state).toBe('active');
    });

    it('mints codes of 16 unambiguous characters from the CSPRNG, shown in groups of 4, and audits mint and view', async () => {
      const before = (await audits('mint')).length;
      const d = await mintThroughApi(h.app, finance, {
        name: '新用户礼包',
        remark: '十二月活动',
        points: ' 120 ',
        count: '25',
        uses: '3',
      });
      expect(d.batch).toMatchObject({
        name: '新用户礼包',
        remark: '十二月活动',
        points: 120,
        codeCount: 25,
        usesPerCode: 3,
        redeemed: 0,
        state: 'active',
        createdBy: 'promo-fin',
        expiresOn: dayFromNow(30),
      });
      expect(d.codes).toHaveLength(25);
      for (const c of d.codes) {
        expect(c.code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
        expect(PROMO_CODE_RE.test(normalizePromoCode(c.code))).toBe(true);
        expect([c.uses, c.maxUses]).toEqual([0, 3]);
      }
      expect(new Set(d.codes.map((c) => c.code)).size).toBe(25);
      const mints = await audits('mint');
      expect(mints).toHaveLength(before + 1);
      expect(mints.at(-1)!.subject).toBe(`${d.batch.id} 新用户礼包`);
      await get(h.app, PromoOpsPaths.batch, { id: d.batch.id }, finance);
      expect((await audits('view')).at(-1)!.subject).toBe(String(d.batch.id));
      const list = await get<PromoBatchListData>(h.app, PromoOpsPaths.batches, { page: 1 }, finance);
      expect(list.data.list[0]!.id).toBe(d.batch.id);
      expect(list.data.count).toBeGreaterThanOrEqual(1);
    });

    it('takes points, count and uses as decimal digits only, within their bounds, and a real expiry day', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ points: '1e3' }, PromoMsg.pointsDigits],
        [{ points: '0x10' }, PromoMsg.pointsDigits],
        [{ points: '5.0' }, PromoMsg.pointsDigits],
        [{ points: '+5' }, PromoMsg.pointsDigits],
        [{ points: '' }, PromoMsg.pointsRequired],
        [{ points: '0' }, PromoMsg.pointsRange],
        [{ points: '50001' }, PromoMsg.pointsRange],
        [{ count: '1001' }, PromoMsg.countRange],
        [{ count: '1e2' }, PromoMsg.countDigits],
        [{ uses: '0' }, PromoMsg.usesRange],
        [{ name: '  ' }, PromoMsg.nameRequired],
        [{ name: '<b>' }, PromoMsg.specialChars],
        [{ expiresOn: '' }, PromoMsg.expiryRequired],
        [{ expiresOn: '2030-02-30' }, PromoMsg.expiryInvalid],
        [{ expiresOn: '2030/01/01' }, PromoMsg.expiryInvalid],
        [{ expiresOn: dayFromNow(-1) }, PromoMsg.expiryPast],
        [{ expiresOn: dayFromNow(4000) }, PromoMsg.expiryTooFar],
      ];
      const batches = async () =>
        Number(
          (
            await h.app.pdb.db
              .selectFrom('promo_batches')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await batches();
      for (const [over, msg] of cases) {
        const r = await post(h.app, PromoOpsPaths.mint, mintBody(over), finance);
        expect([r.code, r.msg], JSON.stringify(over)).toEqual([400, msg]);
      }
      expect(await batches()).toBe(before);
      // a form post of the same fields, and the largest values
      const form = await post<PromoBatchDetail>(
        h.app,
        PromoOpsPaths.mint,
        mintBody({ points: '50000', count: '1000', expiresOn: dayFromNow(0) }),
        finance,
        true,
      );
      expect([form.code, form.data.codes.length, form.data.batch.points]).toEqual([200, 1000, 50000]);
    });

    it('disables a batch once (audited); its codes no longer redeem; unknown ids answer 404', async () => {
      const d = await mintThroughApi(h.app, finance);
      const u = await newUser();
      const off = await post<PromoBatchDetail>(h.app, PromoOpsPaths.disable, { id: d.batch.id }, finance);
      expect([off.code, off.msg, off.data.batch.state]).toEqual([200, PromoMsg.disabled, 'disabled']);
      expect((await audits('disable')).at(-1)!.subject).toBe(String(d.batch.id));
      const twice = await post(h.app, PromoOpsPaths.disable, { id: d.batch.id }, finance);
      expect([twice.code, twice.msg]).toEqual([400, PromoMsg.alreadyDisabled]);
      const r = await redeem(u.token, codeOf(d));
      expect([r.code, r.msg]).toEqual([400, PromoMsg.batchDisabled]);
      const missing = await post(h.app, PromoOpsPaths.disable, { id: 99999999 }, finance);
      expect([missing.code, missing.msg]).toEqual([404, PromoMsg.batchNotFound]);
      const view = await get(h.app, PromoOpsPaths.batch, { id: 99999999 }, finance);
      expect([view.code, view.msg]).toEqual([404, PromoMsg.batchNotFound]);
    });
  });

  describe('redeeming', () => {
    it('credits a single-use code once, as typed; the points page shows 兑换码; nobody redeems it again', async () => {
      const d = await mintThroughApi(h.app, finance, { points: '88' });
      const a = await newUser();
      const b = await newUser();
      const aId = await userIdOf(h.app, a.mobile);
      const typed = ` ${d.codes[0]!.code.toLowerCase().replace(/-/g, ' - ')} `;
      const r = await redeem(a.token, typed);
      expect([r.code, r.msg, r.data]).toEqual([200, PromoMsg.redeemed(88), { points: 88, balance: 88 }]);
      const history = await get<PointsHistoryData>(h.app, PointsPaths.history, {}, a.token);
      expect(history.data.list[0]).toMatchObject({ kind: 'promo', label: '兑换码', points: 88, balance: 88 });
      const again = await redeem(a.token, codeOf(d));
      expect([again.code, again.msg]).toEqual([400, PromoMsg.alreadyRedeemed]);
      const other = await redeem(b.token, codeOf(d));
      expect([other.code, other.msg]).toEqual([400, PromoMsg.usedUp]);
      expect(await usesOf(codeOf(d))).toBe(1);
      expect(await balances(h.app, aId)).toEqual({ points: 88, journal: 88 });
      expect(await balances(h.app, await userIdOf(h.app, b.mobile))).toEqual({ points: 0, journal: 0 });
      // the other code of the batch is still good
      expect((await redeem(b.token, codeOf(d, 1))).code).toBe(200);
    });

    it('credits a limited-use code once per user, up to its limit', async () => {
      const d = await mintThroughApi(h.app, finance, { points: '5', count: '1', uses: '3' });
      const users = [await newUser(), await newUser(), await newUser(), await newUser()];
      const answers = [];
      for (const u of users.slice(0, 3)) answers.push((await redeem(u.token, codeOf(d))).code);
      expect(answers).toEqual([200, 200, 200]);
      const fourth = await redeem(users[3]!.token, codeOf(d));
      expect([fourth.code, fourth.msg]).toEqual([400, PromoMsg.usedUp]);
      const again = await redeem(users[0]!.token, codeOf(d));
      expect([again.code, again.msg]).toEqual([400, PromoMsg.alreadyRedeemed]);
      expect(await usesOf(codeOf(d))).toBe(3);
      const view = await get<PromoBatchDetail>(h.app, PromoOpsPaths.batch, { id: d.batch.id }, finance);
      expect([view.data.batch.redeemed, view.data.codes[0]!.uses, view.data.codes[0]!.maxUses]).toEqual([
        3, 3, 3,
      ]);
    });

    it('refuses an expired code after the end of its day, and a blank one', async () => {
      const d = await mintThroughApi(h.app, finance);
      const u = await newUser();
      await h.app.pdb.db
        .updateTable('promo_batches')
        .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
        .where('id', '=', d.batch.id)
        .execute();
      const r = await redeem(u.token, codeOf(d));
      expect([r.code, r.msg]).toEqual([400, PromoMsg.codeExpired]);
      const blank = await redeem(u.token, ' - ');
      expect([blank.code, blank.msg]).toEqual([400, PromoMsg.codeRequired]);
      const view = await get<PromoBatchDetail>(h.app, PromoOpsPaths.batch, { id: d.batch.id }, finance);
      expect(view.data.batch.state).toBe('expired');
      const anon = await redeem('', codeOf(d));
      expect(anon.code).toBe(408);
    });

    it(`throttles a user after ${PROMO_ATTEMPTS_MAX} unknown codes (only unknown ones count), not other users`, async () => {
      const d = await mintThroughApi(h.app, finance, { count: '1', uses: '2' });
      const guesser = await newUser();
      const other = await newUser();
      await redeem(guesser.token, codeOf(d));
      for (let i = 0; i < PROMO_ATTEMPTS_MAX + 3; i++) {
        const again = await redeem(guesser.token, codeOf(d)); // already redeemed: not a guess
        expect(again.msg).toBe(PromoMsg.alreadyRedeemed);
      }
      for (let i = 0; i < PROMO_ATTEMPTS_MAX; i++) {
        const r = await redeem(guesser.token, i % 2 ? 'AAAA-BBBB-CCCC-DDDD' : 'not a code');
        expect([r.code, r.msg]).toEqual([404, PromoMsg.codeUnknown]);
      }
      const locked = await redeem(guesser.token, codeOf(d));
      expect([locked.code, locked.msg]).toEqual([429, PromoMsg.throttled]);
      expect((await redeem(other.token, codeOf(d))).code).toBe(200);
    });
  });

  it('migration 0028 creates the three tables and drops them again', async () => {
    await withScratchDatabase(h, async (pdb, migrator) => {
      expect((await migrator.migrateTo('0028_promo_codes')).error).toBeUndefined();
      const tables = async () =>
        (await pdb.db.introspection.getTables()).map((t) => t.name).filter((n) => n.startsWith('promo_'));
      expect((await tables()).sort()).toEqual(['promo_batches', 'promo_codes', 'promo_redemptions']);
      expect((await migrator.migrateTo('0027_evidence_events')).error).toBeUndefined();
      expect(await tables()).toEqual([]);
    });
  });

  describe('under concurrency', () => {
    it('50 users redeeming one single-use code at once: exactly one credit', async () => {
      const d = await mintThroughApi(h.app, finance, { points: '7', count: '1' });
      const users = [];
      for (let i = 0; i < 50; i++) users.push(await newUser());
      const answers = await Promise.all(users.map((u) => redeem(u.token, codeOf(d))));
      const codes = answers.map((r) => r.code);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.code !== 200).every((r) => r.msg === PromoMsg.usedUp)).toBe(true);
      expect(await usesOf(codeOf(d))).toBe(1);
      const rows = await redemptionsOf(codeOf(d));
      expect(rows).toHaveLength(1);
      const winner = users[codes.indexOf(200)]!;
      const winnerId = await userIdOf(h.app, winner.mobile);
      expect(Number(rows[0]!.user_id)).toBe(winnerId);
      expect(await promoEntries(winnerId)).toEqual([{ points: 7, source_ref: String(rows[0]!.id) }]);
      for (const u of users) {
        const id = await userIdOf(h.app, u.mobile);
        const expected = id === winnerId ? 7 : 0;
        expect(await balances(h.app, id)).toEqual({ points: expected, journal: expected });
      }
    });

    it('one user redeeming one code 50 times at once: exactly one credit', async () => {
      const d = await mintThroughApi(h.app, finance, { points: '9', count: '1', uses: '5' });
      const u = await newUser();
      const id = await userIdOf(h.app, u.mobile);
      const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(u.token, codeOf(d))));
      expect(answers.filter((r) => r.code === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.code !== 200).every((r) => r.msg === PromoMsg.alreadyRedeemed)).toBe(
        true,
      );
      expect(await usesOf(codeOf(d))).toBe(1);
      expect(await redemptionsOf(codeOf(d))).toHaveLength(1);
      expect(await promoEntries(id)).toHaveLength(1);
      expect(await balances(h.app, id)).toEqual({ points: 9, journal: 9 });
    });

    it('50 users redeeming one code of 5 uses at once: exactly five credits', async () => {
      const d = await mintThroughApi(h.app, finance, { points: '3', count: '1', uses: '5' });
      const users = [];
      for (let i = 0; i < 50; i++) users.push(await newUser());
      const answers = await Promise.all(users.map((u) => redeem(u.token, codeOf(d))));
      expect(answers.filter((r) => r.code === 200)).toHaveLength(5);
      expect(await usesOf(codeOf(d))).toBe(5);
      expect(new Set((await redemptionsOf(codeOf(d))).map((r) => r.user_id)).size).toBe(5);
    });
  });
});
