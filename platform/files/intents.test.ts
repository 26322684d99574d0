/**
 * Objects announced before they are stored (decision 046): a committed save leaves no intent; a save that rolls back
 * leaves neither object nor intent; what a crash leaves (an intent and its object, no row) is swept, while an object
 * a row names is never deleted, neither by the sweep nor by a failed save's withdrawal.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forEachDialect, login, upload } from '../../tests/support/platform.ts';
import { saveEvidence } from '../evidence/service.ts';
import { announceObject, sweepIntents, withdrawObject } from './intents.ts';
import { discardTemp, receiveToTemp } from './temp.ts';

forEachDialect('file intents', (h) => {
  /** Uploads `bytes` random bytes as the demo user through the API; @returns the saved evidence's row (its storage key). */
  const savedObject = async (bytes: number, fileName: string, title: string) => {
    const token = await login(h.app, '13800138000', 'demo1234');
    const saved = await upload<{ baoquan: string }>(h.app, token, randomBytes(bytes), fileName, { title });
    expect(saved.code).toBe(200);
    return h.app.pdb.db
      .selectFrom('evidences')
      .select('storage_key')
      .where('baoquan', '=', saved.data.baoquan)
      .executeTakeFirstOrThrow();
  };

  describe('evidence objects', () => {
    it('a committed save leaves no intent; a crashed one is swept; a named object is kept', async () => {
      const named = await savedObject(2048, 'kept.bin', '留存');
      const { db } = h.app.pdb;
      expect(await db.selectFrom('file_intents').selectAll().execute()).toEqual([]);

      // what a process killed between the move and the commit leaves: the intent and the object, no row
      const bucket = h.app.files.bucket('evidence');
      await announceObject(db, 'evidence', 'zz/CRASHEDSAVE0001');
      await bucket.put('zz/CRASHEDSAVE0001', Readable.from([randomBytes(100)]));
      // an intent cleared late whose row did commit
      await announceObject(db, 'evidence', named.storage_key);
      expect(await sweepIntents(db, h.app.files.storage, 3600)).toBe(0); // younger than the TTL: left alone
      expect(await sweepIntents(db, h.app.files.storage, 0)).toBe(1);
      expect(await bucket.size('zz/CRASHEDSAVE0001')).toBeNull();
      expect(await bucket.size(named.storage_key)).toBe(2048);
      expect(await db.selectFrom('file_intents').selectAll().execute()).toEqual([]);
    });

    it("a failed save's withdrawal deletes its object and intent, but never an object a row names", async () => {
      const named = await savedObject(1024, 'named.bin', '已提交');
      const { db } = h.app.pdb;
      const bucket = h.app.files.bucket('evidence');
      await announceObject(db, 'evidence', 'zz/WITHDRAWN00001');
      await bucket.put('zz/WITHDRAWN00001', Readable.from([randomBytes(64)]));
      await withdrawObject(db, bucket, 'evidence', 'zz/WITHDRAWN00001');
      expect(await bucket.size('zz/WITHDRAWN00001')).toBeNull();
      // a save told its commit failed when it did commit (the acknowledgement lost): the row keeps its file
      await withdrawObject(db, bucket, 'evidence', named.storage_key);
      expect(await bucket.size(named.storage_key)).toBe(1024);
      expect(await db.selectFrom('file_intents').selectAll().execute()).toEqual([]);
    });

    it('a save that rolls back leaves neither object nor intent', async () => {
      const { db } = h.app.pdb;
      const file = await receiveToTemp(Readable.from([randomBytes(512)]), h.app.tmpDir);
      const demo = await db
        .selectFrom('users')
        .select('id')
        .where('mobile', '=', '13800138000')
        .executeTakeFirstOrThrow();
      const evidences = async () => (await db.selectFrom('evidences').select('id').execute()).length;
      const count = await evidences();
      await expect(
        saveEvidence(h.app.pdb, h.app.storage, {
          userId: demo.id,
          title: '回滚',
          label: '',
          fileName: 'r.bin',
          file,
          type: { fileType: 5, mime: 'application/octet-stream' },
          alsoInTransaction: async () => {
            throw new Error('a write that must commit with the evidence failed');
          },
        }),
      ).rejects.toThrow(/must commit/);
      expect(await evidences()).toBe(count);
      expect(await db.selectFrom('file_intents').selectAll().execute()).toEqual([]);
      await discardTemp(file);
    });
  });
});
