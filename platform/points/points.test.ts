/**
 * The points API (docs/decisions/057-points-api.md), on SQLite and PostgreSQL: a credit and a debit inside the
 * user's transaction, a debit below zero refused with 积分不足 and the whole transaction rolled back, the same source
 * refused a second time (a typed error, or `already` from creditOnce), 20 concurrent credits of one source — by one
 * user and by 20 users — ending in one entry, an unregistered kind refused, the journal's sum equal to the balance
 * throughout; the history call and its labels; and migration 0026 (sources backfilled from the order and kind, the
 * unique index, order_id nullable, and back).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { BillingMsg } from '../../contract/billing.ts';
import { PointsPaths, type PointsHistoryData } from '../../contract/points.ts';
import { balances, creditPoints, demoToken, userIdOf } from '../../tests/support/billing.ts';
import {
  forEachDialect,
  get,
  insertBareUser,
  post,
  registerUser,
  login,
  withScratchDatabase,
} from '../../tests/support/platform.ts';
import { ApiError } from '../core/errors.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { Database } from '../db/schema.ts';
import '../billing/journal.ts';
import {
  balanceOf,
  credit,
  creditOnce,
  debit,
  DuplicatePointsSource,
  history,
  journalSum,
  registerPointsSource,
  UnknownPointsSource,
} from './journal.ts';

registerPointsSource({ kind: 'test-gift', label: '测试赠送', direction: 'credit' });
registerPointsSource({ kind: 'test-fee', label: '测试扣费', direction: 'debit' });

/** A fresh reference. */
const ref = () => randomBytes(8).toString('hex');

describe('the registry', () => {
  it('registers a kind once, refuses a conflicting or malformed one', () => {
    expect(() =>
      registerPointsSource({ kind: 'test-gift', label: '测试赠送', direction: 'credit' }),
    ).not.toThrow();
    expect(() => registerPointsSource({ kind: 'test-gift', label: '别的', direction: 'credit' })).toThrow(
      TypeError,
    );
    expect(() => registerPointsSource({ kind: 'Test Gift', label: '赠送', direction: 'credit' })).toThrow(
      TypeError,
    );
    expect(() => registerPointsSource({ kind: 'x'.repeat(33), label: '赠送', direction: 'credit' })).toThrow(
      TypeError,
    );
    expect(() => registerPointsSource({ kind: 'test-empty', label: '', direction: 'debit' })).toThrow(
      TypeError,
    );
  });
});

forEachDialect('the points API', (h) => {
  let userId = 0;
  beforeAll(async () => {
    await registerUser(h.app, h.dataDir, '13900000301', 'Passw0rd');
    userId = await userIdOf(h.app, '13900000301');
  });
  const inTx = <T>(fn: (trx: Kysely<Database>) => Promise<T>, id = userId) =>
    withUserTransaction(h.app.pdb, id, fn);
  const entriesOf = (kind: string, r: string) =>
    h.app.pdb.db
      .selectFrom('points_journal')
      .selectAll()
      .where('source_kind', '=', kind)
      .where('source_ref', '=', r)
      .execute();

  it('credits and debits inside the user transaction, each entry with its source and the balance after it', async () => {
    const gift = ref();
    const fee = ref();
    expect(await inTx((trx) => credit(trx, userId, 30, { kind: 'test-gift', ref: gift }, 100))).toBe(30);
    expect(await inTx((trx) => debit(trx, userId, 12, { kind: 'test-fee', ref: fee }, 101))).toBe(18);
    expect(await balanceOf(h.app.pdb.db, userId)).toBe(18);
    expect(await journalSum(h.app.pdb.db, userId)).toBe(18);
    const [entry] = await entriesOf('test-fee', fee);
    expect(entry).toMatchObject({ points: -12, balance_after: 18, order_id: null, created_at: 101 });
  });

  it('refuses a debit below zero with 积分不足 and rolls the whole transaction back', async () => {
    const before = await balances(h.app, userId);
    const gift = ref();
    const fee = ref();
    const attempt = inTx(async (trx) => {
      await credit(trx, userId, 5, { kind: 'test-gift', ref: gift }, 102);
      return debit(trx, userId, before.points + 6, { kind: 'test-fee', ref: fee }, 102);
    });
    await expect(attempt).rejects.toMatchObject({ code: 400, msg: BillingMsg.insufficientPoints });
    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    expect(await balances(h.app, userId)).toEqual(before);
    expect(await entriesOf('test-gift', gift)).toEqual([]);
    expect(await entriesOf('test-fee', fee)).toEqual([]);
  });

  it('refuses the same source twice with a typed error; creditOnce answers already', async () => {
    const gift = ref();
    const source = { kind: 'test-gift', ref: gift };
    const first = await inTx((trx) => credit(trx, userId, 7, source, 103));
    const again = inTx((trx) => credit(trx, userId, 7, source, 104));
    await expect(again).rejects.toBeInstanceOf(DuplicatePointsSource);
    await expect(again).rejects.toMatchObject({ source });
    expect(await inTx((trx) => creditOnce(trx, userId, 7, source, 105))).toEqual({
      status: 'already',
      balance: first,
    });
    // The same reference in another kind is another source.
    expect(await inTx((trx) => debit(trx, userId, 1, { kind: 'test-fee', ref: gift }, 106))).toBe(first - 1);
    expect(await entriesOf('test-gift', gift)).toHaveLength(1);
    const b = await balances(h.app, userId);
    expect(b.journal).toBe(b.points);
  });

  it('20 concurrent credits of one source by one user: one entry', async () => {
    const before = await balances(h.app, userId);
    const source = { kind: 'test-gift', ref: ref() };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => inTx((trx) => creditOnce(trx, userId, 9, source, 107))),
    );
    expect(results.filter((r) => r.status === 'credited')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already')).toHaveLength(19);
    expect(await entriesOf(source.kind, source.ref)).toHaveLength(1);
    expect(await balances(h.app, userId)).toEqual({ points: before.points + 9, journal: before.points + 9 });
  });

  it('20 concurrent credits of one source by 20 users: one entry, the others refused and rolled back', async () => {
    const source = { kind: 'test-gift', ref: ref() };
    const ids: number[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(await insertBareUser(h.app.pdb.db, `1390001${String(i).padStart(4, '0')}`, '3'));
    const settled = await Promise.allSettled(
      ids.map((id) => inTx((trx) => credit(trx, id, 4, source, 108), id)),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    for (const s of settled.filter((x) => x.status === 'rejected'))
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(DuplicatePointsSource);
    expect(await entriesOf(source.kind, source.ref)).toHaveLength(1);
    let total = 0;
    for (const id of ids) {
      const b = await balances(h.app, id);
      expect(b.journal).toBe(b.points);
      total += b.points;
    }
    expect(total).toBe(4);
  });

  it('refuses an unregistered kind, a kind of the other direction, and points that are not an integer ≥ 1', async () => {
    const before = await balances(h.app, userId);
    await expect(
      inTx((trx) => credit(trx, userId, 1, { kind: 'no-such-kind', ref: ref() }, 109)),
    ).rejects.toBeInstanceOf(UnknownPointsSource);
    await expect(
      inTx((trx) => credit(trx, userId, 1, { kind: 'test-fee', ref: ref() }, 109)),
    ).rejects.toBeInstanceOf(UnknownPointsSource);
    await expect(
      inTx((trx) => debit(trx, userId, 1, { kind: 'test-gift', ref: ref() }, 109)),
    ).rejects.toBeInstanceOf(UnknownPointsSource);
    for (const points of [0, -3, 1.5, Number.NaN])
      await expect(
        inTx((trx) => credit(trx, userId, points, { kind: 'test-gift', ref: ref() }, 109)),
      ).rejects.toBeInstanceOf(RangeError);
    await expect(
      inTx((trx) => credit(trx, userId, 1, { kind: 'test-gift', ref: '' }, 109)),
    ).rejects.toBeInstanceOf(TypeError);
    expect(await balances(h.app, userId)).toEqual(before);
  });

  it('pages the history newest first with labels, signed points and the balance after each entry', async () => {
    const page1 = await history(h.app.pdb.db, userId, 1, 3);
    expect(page1.count).toBeGreaterThan(3);
    expect(page1.list).toHaveLength(3);
    expect(page1.balance).toBe(await balanceOf(h.app.pdb.db, userId));
    expect(page1.list[0]!.balance).toBe(page1.balance);
    const ids = page1.list.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const all = await history(h.app.pdb.db, userId, 1, 100);
    expect(all.list.map((e) => e.label)).toContain('测试赠送');
    expect(all.list.map((e) => e.label)).toContain('测试扣费');
    // each entry's balance is the next older one's plus its points
    for (let i = 0; i + 1 < all.list.length; i++)
      expect(all.list[i]!.balance).toBe(all.list[i + 1]!.balance + all.list[i]!.points);
    expect(all.list.at(-1)!.balance).toBe(all.list.at(-1)!.points);
    expect((await history(h.app.pdb.db, userId, 2, 3)).list[0]!.id).toBe(all.list[3]!.id);
  });

  it('answers the history call for the caller only, with billing labels', async () => {
    const token = await demoToken(h.app);
    const demoId = await userIdOf(h.app, '13800138000');
    await creditPoints(h.app, '13800138000', 25);
    const r = await get<PointsHistoryData>(h.app, PointsPaths.history, { page: 1 }, token);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ page: 1, pageSize: 20, balance: await balanceOf(h.app.pdb.db, demoId) });
    expect(r.data.list[0]).toMatchObject({ kind: 'recharge', label: '充值', points: 25 });
    expect(r.data.list.every((e) => e.label !== '测试赠送')).toBe(true);
    const byPost = await post<PointsHistoryData>(h.app, PointsPaths.history, { page: '1' }, token);
    expect(byPost.data.list).toEqual(r.data.list);
    expect((await get(h.app, PointsPaths.history, { page: 'x' }, token)).code).toBe(400);
    expect((await get(h.app, PointsPaths.history, {})).code).toBe(408);
    const other = await login(h.app, '13900000301', 'Passw0rd');
    const mine = await get<PointsHistoryData>(h.app, PointsPaths.history, {}, other);
    expect(mine.data.list.every((e) => e.kind.startsWith('test-'))).toBe(true);
  });
});

forEachDialect('migration 0026 (points sources)', (h) => {
  it('backfills each entry from its order and kind, adds the unique source index, lets order_id be null; down reverts', async () => {
    await withScratchDatabase(h, async (pdb, migrator) => {
      expect((await migrator.migrateTo('0025_capture_jobs_evidence')).error).toBeUndefined();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = pdb.db as any;
      const userId = await insertBareUser(db, '13900000399', '3');
      const order = (no: string, kind: string) =>
        db
          .insertInto('billing_orders')
          .values({
            order_no: no,
            user_id: userId,
            kind,
            points: 10,
            amount_fen: kind === 'recharge' ? 1000 : 0,
            pay_type: kind === 'recharge' ? 2 : 1,
            status: 2,
            description: 'old',
            expires_at: 1,
            created_at: 1,
            updated_at: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const r = await order('R20240101aaaaaaaaaaaaaaaaaaaa', 'recharge');
      const c = await order('C20240101bbbbbbbbbbbbbbbbbbbb', 'spend');
      await db
        .insertInto('points_journal')
        .values([
          { user_id: userId, order_id: r.id, kind: 'recharge', points: 10, balance_after: 10, created_at: 1 },
          { user_id: userId, order_id: c.id, kind: 'spend', points: -10, balance_after: 0, created_at: 2 },
          { user_id: userId, order_id: c.id, kind: 'reversal', points: 10, balance_after: 10, created_at: 3 },
        ])
        .execute();

      expect((await migrator.migrateTo('0026_points_sources')).error).toBeUndefined();
      const rows = await pdb.db.selectFrom('points_journal').selectAll().orderBy('id').execute();
      expect(rows.map((x) => [x.source_kind, x.source_ref, Number(x.order_id), Number(x.points)])).toEqual([
        ['recharge', 'R20240101aaaaaaaaaaaaaaaaaaaa', Number(r.id), 10],
        ['spend', 'C20240101bbbbbbbbbbbbbbbbbbbb', Number(c.id), -10],
        ['reversal', 'C20240101bbbbbbbbbbbbbbbbbbbb', Number(c.id), 10],
      ]);
      const entry = (kind: string, sourceRef: string) => ({
        user_id: userId,
        source_kind: kind,
        source_ref: sourceRef,
        points: 1,
        balance_after: 11,
        created_at: 4,
      });
      await expect(
        db.insertInto('points_journal').values(entry('reversal', 'C20240101bbbbbbbbbbbbbbbbbbbb')).execute(),
      ).rejects.toThrow();
      const added = await db
        .insertInto('points_journal')
        .values(entry('redeem', 'code-1'))
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(Number(added.id)).toBeGreaterThan(Number(rows.at(-1)!.id));
      // a long provider name fits the widened column
      await db
        .insertInto('billing_notifications')
        .values({
          provider: 'bank-transfer-confirmation',
          verdict: 'applied',
          raw_body: '',
          headers: '{}',
          received_at: 1,
        })
        .execute();

      // Down refuses while another source's entry is there, then reverts billing's entries.
      expect((await migrator.migrateDown()).error).toBeDefined();
      await db.deleteFrom('points_journal').where('source_kind', '=', 'redeem').execute();
      await db.deleteFrom('billing_notifications').execute();
      expect((await migrator.migrateTo('0025_capture_jobs_evidence')).error).toBeUndefined();
      const back = await db.selectFrom('points_journal').select(['order_id', 'kind']).orderBy('id').execute();
      expect(back.map((x: { order_id: number; kind: string }) => [Number(x.order_id), x.kind])).toEqual([
        [Number(r.id), 'recharge'],
        [Number(c.id), 'spend'],
        [Number(c.id), 'reversal'],
      ]);
    });
  });
});
