/**
 * Evidence events on both dialects (docs/decisions/059-evidence-events.md): a save writes its `saved` event in its own
 * transaction — a save whose `alsoInTransaction` fails leaves neither evidence nor event — and the owner's deletion a
 * `state-changed` one (once); a consumer takes each event once, in order, from its own cursor; two takers of one
 * consumer on two database handles (as two processes), taking while saves commit, never get the same event and
 * together get them all; the internal take call wants the internal key; old events are pruned.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { EventPaths, EventsMsg, type TakenEvent, type TakenEvents } from '../../contract/events.ts';
import { forEachDialect, login, post } from '../../tests/support/platform.ts';
import { openDatabase, type PlatformDb } from '../db/database.ts';
import { saveEvidence, type NewEvidence } from '../evidence/service.ts';
import { EVENT_RETENTION_SECONDS, pruneEvents, recordEvidenceEvent, takeEvents } from './events.ts';
import { onEventsCommitted } from './signal.ts';

forEachDialect('evidence events', (h) => {
  let demoId: number;
  let demoToken: string;
  let n = 0;
  beforeAll(async () => {
    const row = await h.app.pdb.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', '13800138000')
      .executeTakeFirstOrThrow();
    demoId = Number(row.id);
    demoToken = await login(h.app, '13800138000', 'demo1234');
  });

  /** Hash evidence of the demo account (no bytes to store), with `extra` fields. */
  const hashEvidence = (extra: Partial<NewEvidence> = {}): NewEvidence => ({
    userId: demoId,
    title: `事件测试 ${++n}`,
    label: '',
    fileName: '',
    file: { path: null, size: 0, sha256: randomBytes(32).toString('hex') },
    type: { fileType: 5, mime: '' },
    kind: 'hash',
    ...extra,
  });
  const save = (extra: Partial<NewEvidence> = {}) =>
    saveEvidence(h.app.pdb, h.app.storage, hashEvidence(extra));
  const allEvents = () => h.app.pdb.db.selectFrom('evidence_events').selectAll().orderBy('id').execute();
  /** Takes everything `consumer` has not taken yet. */
  const drain = async (consumer: string, db = h.app.pdb.db) => {
    const out: TakenEvent[] = [];
    for (;;) {
      const batch = await takeEvents(db, consumer, 50);
      if (batch.length === 0) return out;
      out.push(...batch);
    }
  };

  it('a save writes its saved event and signals after the commit; each consumer takes it once', async () => {
    await drain('certificate-pdf');
    let signals = 0;
    const stop = onEventsCommitted(() => signals++);
    const saved = await save().finally(stop);
    expect(signals).toBe(1);
    const taken = await drain('certificate-pdf');
    expect(taken).toEqual([
      {
        id: expect.any(Number),
        kind: 'saved',
        evidenceId: saved.id,
        baoquan: saved.baoquan,
        createdAt: expect.any(Number),
      },
    ]);
    expect(await takeEvents(h.app.pdb.db, 'certificate-pdf', 10)).toEqual([]);
    // another consumer has a cursor of its own: it starts with every event kept
    const other = await drain(`other-${h.dialect}`);
    expect(other.map((e) => e.baoquan)).toContain(saved.baoquan);
  });

  it('a save whose alsoInTransaction fails leaves neither evidence nor event', async () => {
    const before = (await allEvents()).length;
    const title = `回滚 ${randomBytes(4).toString('hex')}`;
    await expect(
      save({
        title,
        alsoInTransaction: async () => {
          throw new Error('refused on purpose');
        },
      }),
    ).rejects.toThrow('refused on purpose');
    const rows = await h.app.pdb.db.selectFrom('evidences').select('id').where('title', '=', title).execute();
    expect(rows).toEqual([]);
    expect((await allEvents()).length).toBe(before);
  });

  it('an event is written only inside the ledger transaction of its change', async () => {
    await expect(
      recordEvidenceEvent(h.app.pdb.db, { kind: 'saved', evidenceId: 1, baoquan: 'BQ1' }, 1),
    ).rejects.toThrow(/withLedgerTransaction/);
  });

  it("the owner's deletion writes one state-changed event; deleting again writes none", async () => {
    const saved = await save();
    await drain('certificate-pdf');
    for (let i = 0; i < 2; i++) {
      const r = await post(h.app, EvidencePaths.delData, { dataId: saved.id }, demoToken);
      expect(r.code).toBe(200);
    }
    const taken = await drain('certificate-pdf');
    expect(taken.map((e) => [e.kind, e.baoquan, e.evidenceId])).toEqual([
      ['state-changed', saved.baoquan, saved.id],
    ]);
  });

  describe('two takers of one consumer, on two database handles', () => {
    let second: PlatformDb;
    beforeAll(() => {
      second = openDatabase(h.config.database);
    });
    afterAll(async () => {
      await second?.close();
    });

    // On PostgreSQL saves commit while they take. On SQLite both handles live in this one thread, where a handle
    // waiting for the file's write lock (busy_timeout) blocks the thread that holds it: there the saves come first.
    it('never get the same event and together get every one', async () => {
      const consumer = `race-${h.dialect}`;
      await drain(consumer);
      const first = Number((await allEvents()).at(-1)?.id ?? 0);
      const concurrent = h.dialect === 'postgres';
      for (let i = 0; i < (concurrent ? 20 : 40); i++) await save();
      const got: TakenEvent[][] = [[], []];
      let saving = concurrent;
      // both handles connected before the race starts: a handle still opening its first connection on a loaded
      // machine would find everything taken already
      for (const db of [h.app.pdb, second])
        await db.db.selectFrom('event_cursors').select('consumer').execute();
      const taker = async (db: PlatformDb, into: TakenEvent[]) => {
        for (;;) {
          const batch = await takeEvents(db.db, consumer, 3);
          into.push(...batch);
          if (batch.length === 0 && !saving) return;
          await new Promise((r) => setImmediate(r));
        }
      };
      const takers = [taker(h.app.pdb, got[0]!), taker(second, got[1]!)];
      if (concurrent) await Promise.all(Array.from({ length: 20 }, () => save()));
      saving = false;
      await Promise.all(takers);
      // a last take after both stopped finds nothing left
      expect(await takeEvents(h.app.pdb.db, consumer, 50)).toEqual([]);
      const ids = [...got[0]!, ...got[1]!].map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      const expected = (await allEvents()).filter((e) => Number(e.id) > first).map((e) => Number(e.id));
      expect(expected.length).toBe(40);
      expect(ids.sort((a, b) => a - b)).toEqual(expected);
      // each took its own in ascending order (how many each took is the race's: a taker that loses the cursor
      // TAKE_ATTEMPTS times in a row gets an empty batch, so one of them may get none at all)
      for (const list of got) {
        const own = list.map((e) => e.id);
        expect(own).toEqual([...own].sort((a, b) => a - b));
      }
    });
  });

  it('the take call wants the internal key and a well-formed consumer', async () => {
    const saved = await save();
    const without = await post(h.app, EventPaths.take, { consumer: `call-${h.dialect}` });
    expect([without.status, without.code]).toEqual([403, ApiCode.FORBIDDEN]);
    const key = { 'x-internal-key': h.app.internalKey };
    const bad = await h.app.inject({
      method: 'POST',
      url: EventPaths.take,
      headers: key,
      payload: { consumer: 'Bad Name' },
    });
    expect(bad.json()).toMatchObject({ code: ApiCode.BAD_REQUEST, msg: EventsMsg.badConsumer });
    const taken: TakenEvent[] = [];
    for (;;) {
      const res = await h.app.inject({
        method: 'POST',
        url: EventPaths.take,
        headers: key,
        payload: { consumer: `call-${h.dialect}`, max: 100 },
      });
      const env = res.json() as { code: number; data: TakenEvents };
      expect(env.code).toBe(200);
      if (env.data.events.length === 0) break;
      taken.push(...env.data.events);
    }
    expect(taken.at(-1)).toMatchObject({ kind: 'saved', baoquan: saved.baoquan });
  });

  it('prunes events older than the retention, keeping the newer ones', async () => {
    const saved = await save();
    const now = Math.floor(Date.now() / 1000);
    await h.app.pdb.db
      .updateTable('evidence_events')
      .set({ created_at: now - EVENT_RETENTION_SECONDS - 10 })
      .where('baoquan', '!=', saved.baoquan)
      .execute();
    const old = (await allEvents()).length - 1;
    expect(await pruneEvents(h.app.pdb.db, now)).toBe(old);
    expect((await allEvents()).map((e) => e.baoquan)).toEqual([saved.baoquan]);
  });
});
