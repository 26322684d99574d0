/**
 * Where a save copies its file (decision 046): before the ledger transaction, so the ledger's lock (the
 * in-process group-commit queue and PostgreSQL's advisory lock, shared by every platform process) covers only the
 * database work — one save's slow copy to storage does not hold up another save — and a save whose copy or
 * transaction fails leaves neither object, intent nor row.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../../tests/support/platform.ts';
import type { FileBucket } from '../files/storage.ts';
import { discardTemp, receiveToTemp, type ReceivedFile } from '../files/temp.ts';
import { saveEvidence, type NewEvidence } from './service.ts';

/** How long the stalled storage write waits for the other save before giving up (only a failing run waits it). */
const GIVE_UP_MS = 10_000;

/** `inner` with `putFile` replaced (every other call passes through). */
function withPutFile(inner: FileBucket, putFile: FileBucket['putFile']): FileBucket {
  return {
    put: (key, source) => inner.put(key, source),
    putFile,
    get: (key, range) => inner.get(key, range),
    delete: (key) => inner.delete(key),
    size: (key) => inner.size(key),
  };
}

forEachDialect('evidence save order', (h) => {
  const demoId = async () =>
    (
      await h.app.pdb.db
        .selectFrom('users')
        .select('id')
        .where('mobile', '=', '13800138000')
        .executeTakeFirstOrThrow()
    ).id;
  const received = (bytes: number) => receiveToTemp(Readable.from([randomBytes(bytes)]), h.app.tmpDir);
  const evidence = async (title: string, file: ReceivedFile): Promise<NewEvidence> => ({
    userId: await demoId(),
    title,
    label: '',
    fileName: `${title}.bin`,
    file,
    type: { fileType: 5, mime: 'application/octet-stream' },
  });
  const intents = () => h.app.pdb.db.selectFrom('file_intents').selectAll().execute();
  const rowOf = (key: string) =>
    h.app.pdb.db.selectFrom('evidences').select('id').where('storage_key', '=', key).executeTakeFirst();

  describe('the copy into storage runs outside the ledger transaction', () => {
    it("a save commits while another save's storage write is stalled", async () => {
      const inner = h.app.storage;
      const [slowFile, quickFile] = [await received(4096), await received(1024)];
      const events: string[] = [];
      let stalled!: () => void;
      const isStalled = new Promise<void>((resolve) => (stalled = resolve));
      let quickSettled!: () => void;
      const quickDone = new Promise<void>((resolve) => (quickSettled = resolve));
      const stalling = withPutFile(inner, async (tempPath, key) => {
        stalled();
        // released when the other save has settled; in a failing run (the copy inside the ledger's lock, the
        // other save queued behind this one) after GIVE_UP_MS, so the test reports the order instead of hanging
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([quickDone, new Promise((resolve) => (timer = setTimeout(resolve, GIVE_UP_MS)))]);
        clearTimeout(timer);
        events.push('slow storage write released');
        await inner.putFile(tempPath, key);
      });

      const slowSave = saveEvidence(h.app.pdb, stalling, await evidence('slow', slowFile));
      await isStalled;
      const quickSave = saveEvidence(h.app.pdb, inner, await evidence('quick', quickFile)).finally(() => {
        events.push('quick save settled');
        quickSettled();
      });
      const [slowData, quickData] = await Promise.all([slowSave, quickSave]);

      expect(events).toEqual(['quick save settled', 'slow storage write released']);
      // both committed, each with its file and its own ledger leaf, no intent left
      expect(quickData.chainhash).not.toBe(slowData.chainhash);
      for (const [data, size] of [
        [slowData, 4096],
        [quickData, 1024],
      ] as const) {
        const row = await h.app.pdb.db
          .selectFrom('evidences')
          .select('storage_key')
          .where('baoquan', '=', data.baoquan)
          .executeTakeFirstOrThrow();
        expect(await inner.size(row.storage_key)).toBe(size);
      }
      expect(await intents()).toEqual([]);
      await Promise.all([discardTemp(slowFile), discardTemp(quickFile)]);
    });

    it('a transaction that fails after the copy leaves neither object, intent nor row', async () => {
      const inner = h.app.storage;
      const keys: string[] = [];
      const recording = withPutFile(inner, async (tempPath, key) => {
        keys.push(key);
        await inner.putFile(tempPath, key);
      });
      const file = await received(512);
      await expect(
        saveEvidence(h.app.pdb, recording, {
          ...(await evidence('rolled-back', file)),
          alsoInTransaction: async (_trx, _id) => {
            // the copy is done by the time the transaction runs
            expect(await inner.size(keys[0]!)).toBe(512);
            throw new Error('a write that must commit with the evidence failed');
          },
        }),
      ).rejects.toThrow(/must commit/);
      expect(keys).toHaveLength(1);
      expect(await inner.size(keys[0]!)).toBeNull();
      expect(await rowOf(keys[0]!)).toBeUndefined();
      expect(await intents()).toEqual([]);
      await discardTemp(file);
    });

    it('a failed copy leaves neither intent nor row, and no transaction runs', async () => {
      const keys: string[] = [];
      const failing = withPutFile(h.app.storage, async (_tempPath, key) => {
        keys.push(key);
        throw new Error('storage unavailable');
      });
      const file = await received(256);
      let ran = false;
      await expect(
        saveEvidence(h.app.pdb, failing, {
          ...(await evidence('copy-failed', file)),
          alsoInTransaction: async () => {
            ran = true;
          },
        }),
      ).rejects.toThrow(/storage unavailable/);
      expect(ran).toBe(false);
      expect(keys).toHaveLength(1);
      expect(await rowOf(keys[0]!)).toBeUndefined();
      expect(await intents()).toEqual([]);
      await discardTemp(file);
    });
  });
});
