/**
 * The Merkle ledger on SQLite and PostgreSQL: 200 concurrent appends in real transactions form one tree, proofs
 * from the stored nodes verify with the pure functions, rollbacks leave no leaf, the audit notices tampering, the
 * original hash chain (migration 0001) migrates into the tree, and the routes answer what the contract says.
 */
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EvidencePaths, type EvidenceView, type SaveEvidenceData } from '../../contract/evidence.ts';
import {
  type ConsistencyProofData,
  type LedgerEntryView,
  LedgerPaths,
  type LedgerPublicKey,
  type ProofBundle,
  type SignedTreeHead,
} from '../../contract/ledger.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { buildPlatform } from '../app.ts';
import { openDatabase, type PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { migrationProvider } from '../db/migrations/index.ts';
import {
  createTestDatabase,
  forEachDialect,
  get,
  login,
  post,
  upload,
  type TestDialect,
} from '../../tests/support/platform.ts';
import {
  appendLeaf,
  canonicalJson,
  consistencyProof,
  findLeafByHash,
  inclusionProof,
  ownerRef,
  rootHash,
  treeSize,
  withLedgerTransaction,
} from './ledger.ts';
import { auditLedger } from './audit.ts';
import { LEDGER_KEY_FILE, LedgerSigner, TreeHeads } from './signer.ts';
import { EMPTY_ROOT, leafHash, verifyConsistency, verifyInclusion, verifySth } from './verify.ts';
import { testDialects } from '../../tests/support/environment.ts';

const DIALECTS: TestDialect[] = testDialects();

/** Saves one evidence row and its leaf in one ledger transaction, like evidence/service.ts does. */
async function saveRow(pdb: PlatformDb, userId: number, i: number, failAfterAppend = false) {
  return withLedgerTransaction(pdb, async (trx) => {
    const saved = await insertRow(trx, userId, i);
    if (failAfterAppend) throw new Error('storage failed');
    return saved;
  });
}

/** Inserts evidence row `i` and appends its leaf in `trx`. */
async function insertRow(trx: Kysely<Database>, userId: number, i: number) {
  const now = 1_700_000_000 + i;
  const baoquan = `BQT${randomBytes(10).toString('hex').toUpperCase()}`;
  const sha = createHash('sha256').update(`content ${i}`).digest('hex');
  const { id } = await trx
    .insertInto('evidences')
    .values({
      baoquan,
      user_id: userId,
      title: `t${i}`,
      label: '',
      file_name: `f${i}.bin`,
      file_size: i,
      file_type: 5,
      mime: 'application/octet-stream',
      sha256: sha,
      storage_key: `T/${baoquan}`,
      status: 1,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const leaf = await appendLeaf(
    trx,
    id,
    { baoquan, sha256: sha, size: i, fileType: 5, ownerRef: ownerRef(userId), savedAt: now },
    now,
  );
  return { id, baoquan, ...leaf };
}

forEachDialect('merkle ledger', (h) => {
  let userId: number;
  let heads: TreeHeads;
  beforeAll(async () => {
    const u = await h.app.pdb.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', DEMO_MOBILE)
      .executeTakeFirstOrThrow();
    userId = u.id;
    heads = new TreeHeads(h.app.pdb.db, await LedgerSigner.open(h.dataDir));
  });

  it('the empty tree: size 0, root SHA-256(""), a signed head', async () => {
    expect(await treeSize(h.app.pdb.db)).toBe(0);
    const sth = await heads.current();
    expect(sth).toMatchObject({ treeSize: 0, rootHash: EMPTY_ROOT });
    expect(verifySth(sth, heads.signer.publicKey.pem)).toBe(true);
  });

  it('200 concurrent appends in real transactions form one consistent tree', async () => {
    const early = await heads.current();
    const saved = await Promise.all(Array.from({ length: 200 }, (_, i) => saveRow(h.app.pdb, userId, i)));
    // contiguous, no duplicate index, each append saw the size its index says
    expect(saved.map((s) => s.leafIndex).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    expect(saved.every((s) => s.treeSize === s.leafIndex + 1)).toBe(true);
    expect(new Set(saved.map((s) => s.leafHash)).size).toBe(200);

    const db = h.app.pdb.db;
    const sth = await heads.current();
    expect(sth.treeSize).toBe(200);
    expect(verifySth(sth, heads.signer.publicKey.pem)).toBe(true);
    expect(await heads.current()).toBe(sth); // cached while the size is unchanged
    for (const s of saved) {
      const proof = await inclusionProof(db, s.leafIndex, sth.treeSize);
      expect(verifyInclusion(s.leafHash, s.leafIndex, sth.treeSize, proof, sth.rootHash)).toBe(true);
    }
    // the leaf hash is the hash of the stored canonical record
    const rows = await db.selectFrom('ledger_leaves').selectAll().orderBy('leaf_index').execute();
    expect(rows.map((r) => Number(r.leaf_index))).toEqual(Array.from({ length: 200 }, (_, i) => i));
    for (const r of rows) {
      expect(leafHash(r.record_json)).toBe(r.leaf_hash);
      expect(canonicalJson(JSON.parse(r.record_json))).toBe(r.record_json);
    }
    expect(await auditLedger(db)).toEqual({ ok: true, treeSize: 200, rootHash: sth.rootHash });
    // the earlier head is a prefix of this one
    expect(
      verifyConsistency(
        early.treeSize,
        200,
        early.rootHash,
        sth.rootHash,
        await consistencyProof(db, early.treeSize, 200),
      ),
    ).toBe(true);
  });

  it('consistency proofs from stored nodes verify between many sizes (every m for n ∈ {1, 7, 64, 129, 200})', async () => {
    const db = h.app.pdb.db;
    const roots = new Map<number, string>();
    const root = async (n: number) => roots.get(n) ?? roots.set(n, await rootHash(db, n)).get(n)!;
    for (const n of [1, 7, 64, 129, 200]) {
      for (let m = 0; m <= n; m++) {
        const proof = await consistencyProof(db, m, n);
        expect(verifyConsistency(m, n, await root(m), await root(n), proof), `${m}->${n}`).toBe(true);
        if (m > 0 && m < n)
          expect(verifyConsistency(m, n, await root(m), await root(n - 1), proof)).toBe(false);
      }
    }
    await expect(rootHash(db, 201)).rejects.toThrow(/missing/);
  });

  it('a save that fails after the append leaves no leaf and no node; the next save takes the position', async () => {
    const db = h.app.pdb.db;
    const before = await db
      .selectFrom('ledger_nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(saveRow(h.app.pdb, userId, 999, true)).rejects.toThrow('storage failed');
    expect(await treeSize(db)).toBe(200);
    const after = await db
      .selectFrom('ledger_nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const next = await saveRow(h.app.pdb, userId, 1000);
    expect(next.leafIndex).toBe(200);
    expect((await auditLedger(db)).ok).toBe(true);
  });

  it('saves arriving during a ledger transaction share the next one; a failing one rolls back alone', async () => {
    const db = h.app.pdb.db;
    const start = await treeSize(db);
    const handles: Kysely<Database>[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // A holds the ledger transaction until the others are queued behind it.
    const a = withLedgerTransaction(h.app.pdb, async (trx) => {
      handles.push(trx);
      const saved = await insertRow(trx, userId, 8000);
      await gate;
      return saved;
    });
    const later = [8001, 8002, 8003, 8004].map((i) =>
      withLedgerTransaction(h.app.pdb, async (trx) => {
        handles.push(trx);
        const saved = await insertRow(trx, userId, i);
        if (i === 8002) throw new Error('storage failed');
        return saved;
      }),
    );
    open();
    const [first, ...rest] = await Promise.allSettled([a, ...later]);
    expect(first.status).toBe('fulfilled');
    expect(rest.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((rest[1] as PromiseRejectedResult).reason).toEqual(new Error('storage failed'));
    // one transaction for A, one shared by the four queued saves
    expect(handles[1]).not.toBe(handles[0]);
    expect(new Set(handles.slice(1)).size).toBe(1);
    const leaves = [first, rest[0], rest[2], rest[3]].map(
      (r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof insertRow>>>).value,
    );
    expect(leaves.map((l) => l.leafIndex)).toEqual([start, start + 1, start + 2, start + 3]);
    const failedRow = await db
      .selectFrom('evidences')
      .select('id')
      .where('title', '=', 't8002')
      .executeTakeFirst();
    expect(failedRow).toBeUndefined();
    const size = start + 4;
    const root = await rootHash(db, size);
    expect(await auditLedger(db)).toEqual({ ok: true, treeSize: size, rootHash: root });
    for (const l of leaves) {
      expect(
        verifyInclusion(l.leafHash, l.leafIndex, size, await inclusionProof(db, l.leafIndex, size), root),
      ).toBe(true);
    }
  });

  it('appends through two handles of one database, several per transaction and after a rollback, stay one tree', async () => {
    // Each handle keeps the right edge of its last commit; the other handle's appends and a rolled-back one must
    // send it back to the stored nodes (as another process sharing the database would).
    const other = openDatabase(h.config.database);
    try {
      const start = await treeSize(h.app.pdb.db);
      const appended: { leafIndex: number; leafHash: string }[] = [];
      for (let i = 0; i < 24; i++) {
        const pdb = i % 3 === 2 ? other : h.app.pdb;
        if (i === 7) await expect(saveRow(pdb, userId, 5000 + i, true)).rejects.toThrow('storage failed');
        appended.push(await saveRow(pdb, userId, 5000 + i));
      }
      // several appends in one transaction
      const batch = await withLedgerTransaction(other, async (trx) => {
        const out = [];
        for (let k = 0; k < 5; k++) out.push(await insertRow(trx, userId, 7000 + k));
        return out;
      });
      appended.push(...batch, await saveRow(h.app.pdb, userId, 6000));
      expect(appended.map((a) => a.leafIndex)).toEqual(Array.from({ length: 30 }, (_, i) => start + i));
      const size = start + 30;
      const root = await rootHash(h.app.pdb.db, size);
      expect(await auditLedger(h.app.pdb.db)).toEqual({ ok: true, treeSize: size, rootHash: root });
      for (const a of appended) {
        const proof = await inclusionProof(h.app.pdb.db, a.leafIndex, size);
        expect(verifyInclusion(a.leafHash, a.leafIndex, size, proof, root)).toBe(true);
      }
    } finally {
      await other.db.destroy();
    }
  });

  it('the database refuses a second leaf at a taken position or with a taken hash', async () => {
    const db = h.app.pdb.db;
    const leaf = await db
      .selectFrom('ledger_leaves')
      .selectAll()
      .where('leaf_index', '=', 5)
      .executeTakeFirstOrThrow();
    const other = await db
      .selectFrom('ledger_leaves')
      .selectAll()
      .where('leaf_index', '=', 6)
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('ledger_leaves')
        .values({ ...leaf, evidence_id: other.evidence_id, leaf_hash: 'f'.repeat(64) })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('ledger_leaves')
        .values({ ...leaf, leaf_index: 10_000 })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('ledger_nodes')
        .values({ level: 1, idx: 0, hash: 'f'.repeat(64) })
        .execute(),
    ).rejects.toThrow();
  });

  it('auditLedger notices a rewritten record and a rewritten node', async () => {
    const db = h.app.pdb.db;
    const leaf = await db
      .selectFrom('ledger_leaves')
      .selectAll()
      .where('leaf_index', '=', 3)
      .executeTakeFirstOrThrow();
    // a size that surely differs from the recorded one (a fixed value could equal it)
    const forged = leaf.record_json.replace(/"size":(\d+)/, (_m, n: string) => `"size":${Number(n) + 1}`);
    expect(forged).not.toBe(leaf.record_json);
    await db.updateTable('ledger_leaves').set({ record_json: forged }).where('leaf_index', '=', 3).execute();
    expect(await auditLedger(db)).toMatchObject({
      ok: false,
      leafIndex: 3,
      reason: expect.stringContaining('leaf_hash'),
    });
    // a forger who also rewrites the leaf hash is caught by the evidence row and by the stored nodes above it
    await db
      .updateTable('ledger_leaves')
      .set({ leaf_hash: leafHash(forged) })
      .where('leaf_index', '=', 3)
      .execute();
    expect(await auditLedger(db)).toMatchObject({ ok: false, leafIndex: 3 });
    await db
      .updateTable('ledger_leaves')
      .set({ record_json: leaf.record_json, leaf_hash: leaf.leaf_hash })
      .where('leaf_index', '=', 3)
      .execute();
    const node = await db
      .selectFrom('ledger_nodes')
      .selectAll()
      .where('level', '=', 2)
      .where('idx', '=', 1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('ledger_nodes')
      .set({ hash: 'e'.repeat(64) })
      .where('level', '=', 2)
      .where('idx', '=', 1)
      .execute();
    expect(await auditLedger(db)).toMatchObject({ ok: false, reason: expect.stringContaining('node 2:1') });
    await db
      .updateTable('ledger_nodes')
      .set({ hash: node.hash })
      .where('level', '=', 2)
      .where('idx', '=', 1)
      .execute();
    expect((await auditLedger(db)).ok).toBe(true);
  });

  it('two platform instances on one PostgreSQL database append without forking', async (ctx) => {
    // SQLite is single-writer per file and one process here; this runs on PostgreSQL only (where scale-out happens).
    if (h.dialect !== 'postgres') return ctx.skip();
    const second = await buildPlatform(h.config, { logger: false });
    try {
      const token = await login(h.app, DEMO_MOBILE, 'demo1234');
      const token2 = await login(second, DEMO_MOBILE, 'demo1234');
      const size = (await treeSize(h.app.pdb.db)) + 40;
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2
            ? upload<SaveEvidenceData>(h.app, token, randomBytes(512), `a${i}.bin`)
            : upload<SaveEvidenceData>(second, token2, randomBytes(512), `b${i}.bin`),
        ),
      );
      expect(results.every((r) => r.code === 200)).toBe(true);
      expect(await auditLedger(h.app.pdb.db)).toMatchObject({ ok: true, treeSize: size });
      // both instances sign with the one key under DATA_DIR
      const a = await get<SignedTreeHead>(h.app, LedgerPaths.sth);
      const b = await get<SignedTreeHead>(second, LedgerPaths.sth);
      expect(a.data).toMatchObject({ treeSize: size, rootHash: b.data.rootHash, keyId: b.data.keyId });
    } finally {
      await second.close();
    }
  });
});

forEachDialect('ledger routes', (h) => {
  let token: string;
  let key: LedgerPublicKey;
  beforeAll(async () => {
    token = await login(h.app, DEMO_MOBILE, 'demo1234');
    key = (await get<LedgerPublicKey>(h.app, LedgerPaths.publicKey)).data;
  });

  it('publishes the Ed25519 public key; the private key is under DATA_DIR/keys with mode 0600', async () => {
    expect(key).toMatchObject({ algorithm: 'Ed25519', keyId: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(key.pem).toContain('BEGIN PUBLIC KEY');
    const st = await fsp.stat(path.join(h.dataDir, 'keys', LEDGER_KEY_FILE));
    expect(st.mode & 0o777).toBe(0o600);
    // the same key after a restart
    const again = await LedgerSigner.open(h.dataDir, h.app.config.ledgerOrigin);
    expect(again.publicKey).toEqual(key);
  });

  it('a saved file evidence: chainhash = leaf hash; entry, proof and STH verify with the pure functions', async () => {
    const file = randomBytes(4096);
    const saves = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        upload<SaveEvidenceData>(h.app, token, i === 2 ? file : randomBytes(100), `合同 ${i}.pdf`),
      ),
    );
    expect(saves.every((s) => s.code === 200)).toBe(true);
    const s = saves[2]!.data;

    const entry = await get<LedgerEntryView>(h.app, LedgerPaths.entry, {
      hash: s.chainhash.toUpperCase(),
      baoquan: s.baoquan,
    });
    expect(entry.code).toBe(200);
    const e = entry.data;
    expect(e.leafHash).toBe(s.chainhash);
    expect(leafHash(e.recordCanonical!)).toBe(e.leafHash);
    expect(canonicalJson(e.record!)).toBe(e.recordCanonical);
    expect(e.record).toMatchObject({
      baoquan: s.baoquan,
      sha256: createHash('sha256').update(file).digest('hex'),
      size: 4096,
    });
    expect(e.record!.kind).toBeUndefined(); // file evidence: absent kind, as in the hash chain's records
    expect(verifyInclusion(e.leafHash, e.leafIndex, e.sth.treeSize, e.inclusionProof, e.sth.rootHash)).toBe(
      true,
    );
    expect(verifySth(e.sth, key.pem)).toBe(true);

    const proof = await get<ProofBundle>(h.app, LedgerPaths.proof, { baoquan: s.baoquan });
    expect(proof.code).toBe(200);
    const b = proof.data;
    expect(b).toMatchObject({
      version: 1,
      baoquan: s.baoquan,
      fileName: '合同 2.pdf',
      leafHash: s.chainhash,
      leafIndex: e.leafIndex,
      publicKey: key,
    });
    expect(verifyInclusion(b.leafHash, b.leafIndex, b.sth.treeSize, b.inclusionProof, b.sth.rootHash)).toBe(
      true,
    );
    expect(verifySth(b.sth, b.publicKey.pem)).toBe(true);

    const sth = await get<SignedTreeHead>(h.app, LedgerPaths.sth);
    expect(sth.data.treeSize).toBe(5);
    expect(verifySth(sth.data, key.pem)).toBe(true);

    // the certificate view shows the same chain hash and leaf index
    const view = await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan: s.baoquan }, token);
    expect(view.data).toMatchObject({ chainhash: s.chainhash, leafIndex: e.leafIndex });
    expect(view.data.sth).toBeUndefined();
    // with sth=1 the view carries the current head (one call for a certificate page): the same as /api/ledger/sth
    const withSth = await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan: s.baoquan, sth: '1' });
    expect(withSth.data).toMatchObject({ chainhash: s.chainhash, leafIndex: e.leafIndex, sth: sth.data });
    expect(verifySth(withSth.data.sth!, key.pem)).toBe(true);
  });

  it('an entry looked up by its leaf hash alone has its proof but not its record (which names the certificate)', async () => {
    const saved = (await upload<SaveEvidenceData>(h.app, token, randomBytes(64), '机密.pdf')).data;
    const full = (
      await get<LedgerEntryView>(h.app, LedgerPaths.entry, { hash: saved.chainhash, baoquan: saved.baoquan })
    ).data;
    for (const query of [
      { hash: saved.chainhash },
      { hash: saved.chainhash, baoquan: '' },
      { hash: saved.chainhash, baoquan: `${saved.baoquan}X` },
      { hash: saved.chainhash, baoquan: saved.baoquan.slice(0, -1) },
    ]) {
      const e = await get<LedgerEntryView>(h.app, LedgerPaths.entry, query);
      expect(e.code, JSON.stringify(query)).toBe(200);
      expect(e.data.record).toBeNull();
      expect(e.data.recordCanonical).toBeNull();
      expect(JSON.stringify(e.data)).not.toContain(saved.baoquan);
      expect([e.data.leafIndex, e.data.leafHash, e.data.inclusionProof, e.data.sth.treeSize]).toEqual([
        full.leafIndex,
        full.leafHash,
        full.inclusionProof,
        full.sth.treeSize,
      ]);
    }
    expect(full.record?.baoquan).toBe(saved.baoquan);
    // the number with surrounding blanks, as pasted
    const pasted = await get<LedgerEntryView>(h.app, LedgerPaths.entry, {
      hash: saved.chainhash,
      baoquan: ` ${saved.baoquan} `,
    });
    expect(pasted.data.recordCanonical).toBe(full.recordCanonical);
  });
  it('hash and user-data evidence: fileName null and data.csv, kind in the record', async () => {
    const hash = createHash('sha256').update('only the hash').digest('hex');
    const r = await post<SaveEvidenceData>(h.app, EvidencePaths.saveHash, { hash, title: '哈希' }, token);
    expect(r.code).toBe(200);
    const b = (await get<ProofBundle>(h.app, LedgerPaths.proof, { baoquan: r.data.baoquan })).data;
    expect(b).toMatchObject({
      fileName: null,
      leafHash: r.data.chainhash,
      record: { kind: 'hash', sha256: hash },
    });
    expect(verifyInclusion(b.leafHash, b.leafIndex, b.sth.treeSize, b.inclusionProof, b.sth.rootHash)).toBe(
      true,
    );
  });

  it('consistency between heads; bad sizes answer 400; unknown entries and evidences 404', async () => {
    const before = (await get<SignedTreeHead>(h.app, LedgerPaths.sth)).data;
    await upload<SaveEvidenceData>(h.app, token, randomBytes(64), 'later.txt');
    const after = (await get<SignedTreeHead>(h.app, LedgerPaths.sth)).data;
    expect(after.treeSize).toBe(before.treeSize + 1);
    const c = await get<ConsistencyProofData>(h.app, LedgerPaths.consistency, {
      first: before.treeSize,
      second: after.treeSize,
    });
    expect(c.code).toBe(200);
    expect(
      verifyConsistency(before.treeSize, after.treeSize, before.rootHash, after.rootHash, c.data.proof),
    ).toBe(true);

    for (const q of [
      { first: 3, second: 2 },
      { first: 1, second: 10_000 },
      { first: -1, second: 2 },
      { first: 'x', second: 2 },
      {},
    ]) {
      expect(await get(h.app, LedgerPaths.consistency, q)).toMatchObject({
        code: 400,
        msg: '树大小无效',
        data: null,
      });
    }
    for (const hash of ['0'.repeat(64), 'nothex', '']) {
      expect(await get(h.app, LedgerPaths.entry, { hash })).toMatchObject({
        status: 200,
        code: 404,
        msg: '账本记录不存在',
        data: null,
      });
    }
    expect(await get(h.app, LedgerPaths.proof, { baoquan: 'BQNOPE' })).toMatchObject({
      code: 404,
      data: null,
    });
  });
});

describe.each(DIALECTS)('migration 0002 from the hash-chained ledger of decision 002 [%s]', (dialect) => {
  it('turns the chain into leaves in seq order, keeps the records, and the view still answers', async () => {
    let pdb: PlatformDb;
    let drop: (() => Promise<void>) | undefined;
    let dir: string | undefined;
    if (dialect === 'postgres') {
      const t = await createTestDatabase();
      drop = t.drop;
      pdb = openDatabase({ dialect: 'postgres', url: t.url });
    } else {
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-mig-'));
      pdb = openDatabase({ dialect: 'sqlite', file: path.join(dir, 'db.sqlite') });
    }
    try {
      const migrator = new Migrator({ db: pdb.db, provider: migrationProvider(pdb.dialect) });
      expect((await migrator.migrateTo('0001_initial')).error).toBeUndefined();
      // a database at migration 0001 (the hash chain): 11 evidences with their chain entries
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = pdb.db as any;
      const { id: uid } = await db
        .insertInto('users')
        .values({ mobile: '13900000000', password_hash: 'x', extract_code: 'x', created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      let prev = '0'.repeat(64);
      const records: string[] = [];
      for (let i = 0; i < 11; i++) {
        const baoquan = `BQ2024OLD${String(i).padStart(4, '0')}`;
        const sha = createHash('sha256').update(`old ${i}`).digest('hex');
        const { id } = await db
          .insertInto('evidences')
          .values({
            baoquan,
            user_id: uid,
            title: 't',
            file_name: `o${i}`,
            file_size: i,
            file_type: 5,
            mime: 'x',
            sha256: sha,
            storage_key: 'k',
            created_at: 1000 + i,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const recordJson = canonicalJson({
          baoquan,
          sha256: sha,
          size: i,
          fileType: 5,
          ownerRef: ownerRef(uid),
          savedAt: 1000 + i,
        });
        const recordHash = createHash('sha256').update(recordJson).digest('hex');
        const entryHash = createHash('sha256')
          .update(Buffer.from(prev, 'hex'))
          .update(Buffer.from(recordHash, 'hex'))
          .digest('hex');
        await db
          .insertInto('ledger_entries')
          .values({
            seq: i + 1,
            evidence_id: id,
            prev_hash: prev,
            record_hash: recordHash,
            entry_hash: entryHash,
            record_json: recordJson,
            created_at: 1000 + i,
          })
          .execute();
        prev = entryHash;
        records.push(recordJson);
      }
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const leaves = await pdb.db.selectFrom('ledger_leaves').selectAll().orderBy('leaf_index').execute();
      expect(leaves.map((l) => l.record_json)).toEqual(records);
      expect(leaves.map((l) => l.leaf_hash)).toEqual(records.map((r) => leafHash(r)));
      expect(await auditLedger(pdb.db)).toMatchObject({ ok: true, treeSize: 11 });
      const root = await rootHash(pdb.db, 11);
      for (let i = 0; i < 11; i++) {
        expect(verifyInclusion(leafHash(records[i]!), i, 11, await inclusionProof(pdb.db, i, 11), root)).toBe(
          true,
        );
      }
      // the old chain hashes (printed on certificates from before the Merkle log) still find their leaves
      const chainHashes = (
        await db.selectFrom('ledger_leaves').select('legacy_entry_hash').orderBy('leaf_index').execute()
      ).map((r: { legacy_entry_hash: string }) => r.legacy_entry_hash);
      expect(chainHashes[10]).toBe(prev);
      expect((await findLeafByHash(pdb.db, prev))?.leaf_hash).toBe(leaves[10]!.leaf_hash);
      expect((await findLeafByHash(pdb.db, leaves[3]!.leaf_hash))?.leaf_index).toBe(3);
      // readers written for the hash chain still find seq and the (new) chain hash
      const view = await pdb.db.selectFrom('ledger_entries').selectAll().orderBy('seq').execute();
      expect(view.map((v) => [Number(v.seq), v.entry_hash])).toEqual(
        leaves.map((l) => [Number(l.leaf_index) + 1, l.leaf_hash]),
      );
      // down and up again gives the same chain and the same tree
      expect((await migrator.migrateTo('0001_initial')).error).toBeUndefined();
      const chain = await db.selectFrom('ledger_entries').selectAll().orderBy('seq').execute();
      expect(chain[10].entry_hash).toBe(prev);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await rootHash(pdb.db, 11)).toBe(root);
      await sql`select 1`.execute(pdb.db);
    } finally {
      await pdb.close();
      await drop?.();
      if (dir) await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
