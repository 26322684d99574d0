/**
 * Backups (decision 042): the embedded default backed up while it runs (SQLite online backup, the rows' files),
 * restored into an empty DATA_DIR and served again; the PostgreSQL + object-storage shape through pg_dump /
 * pg_restore with its objects in an S3-compatible store; and the check after a restore against the last published
 * checkpoint — passing when nothing published is missing, naming the lost entries of a backup older than the
 * published head, refusing a rewritten record, a checkpoint of another key, and a missing or changed file.
 */
import { execFile } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadData, EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { checkpointText } from '../../contract/signed-note.ts';
import { signNote } from '../../contract/note-signing.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { createTestDatabase, get, login, post, testConfig, upload } from '../../tests/support/platform.ts';
import { buildPlatform } from '../app.ts';
import { openDatabase } from '../db/database.ts';
import { S3FileStorage } from '../files/s3-storage.ts';
import { LocalFileStorage } from '../files/storage.ts';
import { checkRestored } from './restore-check.ts';
import { backupEmbedded, restoreEmbedded } from './sqlite-backup.ts';
import { childEnvironment } from '../../tests/support/environment.ts';

const run = promisify(execFile);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Saves `n` random files as evidence. @returns their baoquans and bytes */
async function saveFiles(app: FastifyInstance, token: string, n: number) {
  const saved: { baoquan: string; bytes: Buffer }[] = [];
  for (let i = 0; i < n; i++) {
    const bytes = randomBytes(5_000 + i * 777);
    const r = await upload<{ baoquan: string }>(app, token, bytes, `f${i}.bin`, { title: `备份${i}` });
    expect(r.code).toBe(200);
    saved.push({ baoquan: r.data.baoquan, bytes });
  }
  return saved;
}

/** The published checkpoint and the log's verifier key, as an outsider fetches them. */
async function published(app: FastifyInstance) {
  const checkpoint = (await app.inject({ method: 'GET', url: LedgerPaths.checkpoint })).body;
  const key = await get<LedgerPublicKey>(app, LedgerPaths.publicKey, {});
  return { checkpoint, vkey: key.data.noteKey! };
}

/** Downloads an evidence's original as its owner. */
async function download(app: FastifyInstance, token: string, baoquan: string): Promise<Buffer> {
  const view = await get<EvidenceView>(app, EvidencePaths.view, { baoquan }, token);
  const links = await post<DownloadData>(app, EvidencePaths.ownerDownload, { dataId: view.data.id }, token);
  return (await app.inject({ method: 'GET', url: links.data.downUrl })).rawPayload;
}

const tmp = (prefix: string) => fsp.mkdtemp(path.join(os.tmpdir(), prefix));

describe('backup and restore of the embedded default (SQLite + DATA_DIR)', () => {
  let live: FastifyInstance;
  let liveDir: string;
  let work: string;
  let token: string;
  beforeAll(async () => {
    liveDir = await tmp('cz-backup-live-');
    work = await tmp('cz-backup-work-');
    live = await buildPlatform(testConfig(liveDir, undefined), { logger: false });
    token = await login(live, '13800138000', 'demo1234');
  });
  afterAll(async () => {
    await live?.close();
    for (const d of [liveDir, work]) if (d) await fsp.rm(d, { recursive: true, force: true });
  });

  it('backs up while running, restores, serves the same bytes, and checks against the published head', async () => {
    const before = await saveFiles(live, token, 3);
    const atBackup = await published(live);
    const backup = path.join(work, 'backup-1');
    const manifest = await backupEmbedded(testConfig(liveDir, undefined), backup, { withKeys: true });
    expect(manifest).toMatchObject({ treeSize: 3, files: 3, missing: [], keys: true });
    expect(manifest.bytes).toBe(before.reduce((s, f) => s + f.bytes.length, 0));
    await expect(backupEmbedded(testConfig(liveDir, undefined), backup)).rejects.toThrow(/EEXIST/);

    // the live instance goes on: two more entries are published after the backup
    const after = await saveFiles(live, token, 2);
    const latest = await published(live);
    expect(latest.checkpoint).not.toBe(atBackup.checkpoint);

    const restoredDir = path.join(work, 'restored');
    const config = testConfig(restoredDir, undefined);
    await restoreEmbedded(config, backup);
    await expect(restoreEmbedded(config, backup)).rejects.toThrow(/not empty/);

    const pdb = openDatabase(config.database);
    const storage = new LocalFileStorage(restoredDir);
    try {
      const ok = await checkRestored(pdb.db, storage, {
        ...atBackup,
        verifierKey: atBackup.vkey,
        hashFiles: true,
      });
      expect(ok).toMatchObject({
        ok: true,
        ledger: { ok: true, treeSize: 3 },
        published: { ok: true, treeSize: 3 },
      });
      expect(ok.files).toMatchObject({ checked: 3, missing: 0, wrongSize: 0, wrongHash: 0 });

      // the head published after the backup: the restore lost entries 3 and 4, and says so
      const lost = await checkRestored(pdb.db, storage, {
        checkpoint: latest.checkpoint,
        verifierKey: latest.vkey,
      });
      expect(lost.ok).toBe(false);
      expect(lost.published).toMatchObject({ ok: false, treeSize: 5, lost: 2 });

      // a head signed by `key` for a tree of `size` leaves with root `root`, checked against the restored copy
      const origin = atBackup.vkey.split('+')[0]!;
      const against = async (key: KeyObject, size: number, root: string) =>
        (
          await checkRestored(pdb.db, storage, {
            checkpoint: signNote(
              checkpointText({ origin, treeSize: size, rootHash: root, extensions: [] }),
              origin,
              key,
            ),
            verifierKey: atBackup.vkey,
          })
        ).published;
      // a checkpoint signed by another key is not evidence of anything
      const sthRoot = (await get<{ rootHash: string }>(live, LedgerPaths.sth, {})).data.rootHash;
      expect(await against(generateKeyPairSync('ed25519').privateKey, 1, sthRoot)).toMatchObject({
        ok: false,
        reason: expect.stringContaining('does not verify'),
      });
      // a head the log itself signed for a tree whose first leaves differ from the restored ones (a ledger rebuilt
      // with consistent hashes would look like this): the consistency proof cannot reproduce its root
      const logKey = createPrivateKey(await fsp.readFile(path.join(liveDir, 'keys', 'ledger-ed25519.pem')));
      expect(await against(logKey, 2, sha(Buffer.from('another history')))).toMatchObject({
        ok: false,
        reason: expect.stringContaining('were rewritten'),
      });
    } finally {
      await pdb.close();
    }

    // the restored instance serves what was backed up, with the same key and the same bytes
    const restored = await buildPlatform(config, { logger: false });
    try {
      const t = await login(restored, '13800138000', 'demo1234');
      for (const f of before) expect(sha(await download(restored, t, f.baoquan))).toBe(sha(f.bytes));
      const gone = await get(restored, EvidencePaths.view, { baoquan: after[0]!.baoquan }, t);
      expect(gone.code).not.toBe(200);
      expect((await published(restored)).vkey).toBe(atBackup.vkey);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it('finds a rewritten record, a missing file and a changed file in a restored copy (CLI exit 1)', async () => {
    const backup = path.join(work, 'backup-2');
    await backupEmbedded(testConfig(liveDir, undefined), backup);
    const head = await published(live);
    const dir = path.join(work, 'tampered');
    const config = testConfig(dir, undefined);
    await restoreEmbedded(config, backup);
    const checkpointFile = path.join(work, 'checkpoint.txt');
    await fsp.writeFile(checkpointFile, head.checkpoint);
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'platform/backup/cli.ts', ...args], {
        env: childEnvironment({ DATA_DIR: dir, DATABASE_URL: '', STORAGE_URL: '', LOG_LEVEL: 'silent' }),
      }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
    const good = await cli('check', '--checkpoint', checkpointFile, '--vkey', head.vkey, '--hash-files');
    expect(good).toMatchObject({ code: 0, stdout: expect.stringContaining('restore check passed') });

    const pdb = openDatabase(config.database);
    const rows = await pdb.db.selectFrom('evidences').select(['storage_key']).orderBy('id').execute();
    const storage = new LocalFileStorage(dir);
    await fsp.rm(storage.bucket('evidence').pathOf(rows[0]!.storage_key));
    const changed = storage.bucket('evidence').pathOf(rows[1]!.storage_key);
    const bytes = await fsp.readFile(changed);
    bytes[10]! ^= 1;
    await fsp.writeFile(changed, bytes);
    await pdb.db
      .updateTable('ledger_leaves')
      .set({ record_json: '{"rewritten":true}' })
      .where('leaf_index', '=', 2)
      .execute();
    await pdb.close();

    const bad = await cli('check', '--checkpoint', checkpointFile, '--vkey', head.vkey, '--hash-files');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('ledger: NOT consistent: leaf_hash does not match record_json (leaf 2)');
    expect(bad.stdout).toContain('1 missing, 0 of another size, 1 with another SHA-256');
    expect(bad.stdout).toContain(`missing: evidence/${rows[0]!.storage_key} (evidences #`);
    expect(bad.stdout).toContain('restore check FAILED');
    expect(await cli('check', '--vkey', head.vkey)).toMatchObject({ code: 64 });
  }, 60_000);
});

describe('backup and restore of the PostgreSQL + object-storage shape (pg_dump, pg_restore, S3)', () => {
  it('a database restored from its dump checks out against the objects and the published head', async () => {
    const s3 = await startS3();
    const db = await createTestDatabase();
    const target = await createTestDatabase();
    const dir = await tmp('cz-backup-pg-');
    const c = s3.config;
    const env = s3.env('backup-test');
    const app = await buildPlatform(testConfig(dir, db.url, env), { logger: false });
    const store = new S3FileStorage({ ...c, prefix: 'backup-test/' });
    try {
      const token = await login(app, '13800138000', 'demo1234');
      await saveFiles(app, token, 2);
      const head = await published(app);
      const dump = path.join(dir, 'platform.dump');
      await run('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, db.url]);
      await saveFiles(app, token, 1);
      const newer = await published(app);
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);

      const pdb = openDatabase({ dialect: 'postgres', url: target.url });
      try {
        const ok = await checkRestored(pdb.db, store, {
          checkpoint: head.checkpoint,
          verifierKey: head.vkey,
          hashFiles: true,
        });
        expect(ok).toMatchObject({ ok: true, ledger: { treeSize: 2 }, files: { checked: 2, missing: 0 } });
        const lost = await checkRestored(pdb.db, store, {
          checkpoint: newer.checkpoint,
          verifierKey: newer.vkey,
        });
        expect(lost.published).toMatchObject({ ok: false, lost: 1 });
        const row = await pdb.db
          .selectFrom('evidences')
          .select('storage_key')
          .orderBy('id')
          .executeTakeFirstOrThrow();
        await store.bucket('evidence').delete(row.storage_key);
        const missing = await checkRestored(pdb.db, store, {
          checkpoint: head.checkpoint,
          verifierKey: head.vkey,
        });
        expect(missing).toMatchObject({ ok: false, published: { ok: true }, files: { missing: 1 } });
      } finally {
        await pdb.close();
      }
      await expect(backupEmbedded(testConfig(dir, db.url), path.join(dir, 'b'))).rejects.toThrow(/pg_dump/);
    } finally {
      store.destroy();
      await app.close();
      await db.drop();
      await target.drop();
      await s3.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
