/**
 * The check after a restore (docs/decisions/042-backups.md): does the restored instance still
 * hold everything the ledger had published, unchanged, and every file its rows name?
 *
 * 1. The ledger on its own: {@link auditLedger} recomputes every leaf from its record, every record against its
 *    evidence row, every stored node from the leaves (no gap, no stray node).
 * 2. Against the last published tree head, a C2SP signed checkpoint (c2sp.org/tlog-checkpoint) as the log served
 *    it or a witness cosigned it, verified with the log's verifier key kept apart from the backup: when the
 *    restored tree is at least that large, an RFC 9162 §2.1.4 consistency proof from the published size to the
 *    restored one, built from the restored nodes, must reproduce the published root — so none of the published
 *    entries was lost or rewritten; when it is smaller, the restore lost the difference and says how many.
 * 3. Files: each row of stored-files.ts has its object with the recorded size (and, with `hashFiles`, the recorded
 *    SHA-256, reading every byte).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { openCheckpoint, parseVerifierKey } from '../../contract/signed-note.ts';
import type { Database } from '../db/schema.ts';
import type { FileStorage } from '../files/storage.ts';
import { consistencyProof } from '../ledger/ledger.ts';
import { auditLedger } from '../ledger/audit.ts';
import { verifyConsistency } from '../ledger/verify.ts';
import { describeRow, storedFileRows } from './stored-files.ts';

/** What {@link checkRestored} needs besides the database and storage. */
export interface RestoreCheckOptions {
  /** The last published checkpoint: the signed note text (origin, size, base64 root, blank line, signatures). */
  checkpoint: string;
  /** The log's verifier key (`<origin>+<id>+<base64>`, the `noteKey` of `GET /api/ledger/publicKey`). */
  verifierKey: string;
  /** Re-hash every object that has a recorded SHA-256 (reads all bytes); default: sizes only. */
  hashFiles?: boolean;
}

/** Findings about the files; each list holds at most {@link MAX_LISTED} descriptions, the counts are exact. */
export interface FileFindings {
  checked: number;
  missing: number;
  wrongSize: number;
  wrongHash: number;
  examples: string[];
}

/** The outcome of each step, and `ok` when all three hold. */
export interface RestoreReport {
  ok: boolean;
  /** Step 1: the restored tree's size and root, or why the ledger is not self-consistent. */
  ledger: { ok: true; treeSize: number; rootHash: string } | { ok: false; reason: string };
  /** Step 2: the published head and how the restored tree relates to it. */
  published:
    | { ok: true; treeSize: number; rootHash: string }
    | { ok: false; reason: string; treeSize?: number; lost?: number };
  files: FileFindings;
}

/** Descriptions of bad files kept in a report. */
export const MAX_LISTED = 50;

/** Step 2 for a restored tree of `size` leaves with root `root`. */
async function againstPublished(
  db: Kysely<Database>,
  size: number,
  root: string,
  opts: RestoreCheckOptions,
): Promise<RestoreReport['published']> {
  const verifier = parseVerifierKey(opts.verifierKey.trim());
  if (!verifier)
    return { ok: false, reason: 'the verifier key does not parse (expected <origin>+<id>+<key>)' };
  const opened = openCheckpoint(opts.checkpoint, verifier.name, [verifier]);
  if (!opened.ok) return { ok: false, reason: `the published checkpoint does not verify: ${opened.reason}` };
  const head = opened.checkpoint;
  if (head.treeSize > size) {
    const lost = head.treeSize - size;
    return {
      ok: false,
      treeSize: head.treeSize,
      lost,
      reason: `the restored ledger has ${size} entries, ${lost} fewer than the published ${head.treeSize}: entries ${size}..${head.treeSize - 1} are lost`,
    };
  }
  const proof = await consistencyProof(db, head.treeSize, size);
  if (!verifyConsistency(head.treeSize, size, head.rootHash, root, proof)) {
    return {
      ok: false,
      treeSize: head.treeSize,
      reason: `the restored ledger does not extend the published tree of ${head.treeSize} entries: published entries were rewritten`,
    };
  }
  return { ok: true, treeSize: head.treeSize, rootHash: head.rootHash };
}

/** SHA-256 of an object's bytes, lower-case hex. */
async function hashOf(storage: FileStorage, bucket: Parameters<FileStorage['bucket']>[0], key: string) {
  const h = createHash('sha256');
  for await (const chunk of storage.bucket(bucket).get(key)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Step 3. */
async function checkFiles(
  db: Kysely<Database>,
  storage: FileStorage,
  hashFiles: boolean,
): Promise<FileFindings> {
  const f: FileFindings = { checked: 0, missing: 0, wrongSize: 0, wrongHash: 0, examples: [] };
  const note = (what: string) => {
    if (f.examples.length < MAX_LISTED) f.examples.push(what);
  };
  for await (const row of storedFileRows(db)) {
    f.checked++;
    const size = await storage.bucket(row.bucket).size(row.key);
    if (size === null) {
      f.missing++;
      note(`missing: ${describeRow(row)}`);
    } else if (size !== row.size) {
      f.wrongSize++;
      note(`size ${size} instead of ${row.size}: ${describeRow(row)}`);
    } else if (hashFiles && row.sha256 && (await hashOf(storage, row.bucket, row.key)) !== row.sha256) {
      f.wrongHash++;
      note(`SHA-256 differs: ${describeRow(row)}`);
    }
  }
  return f;
}

/**
 * Runs the three steps over a restored database and its storage. Reads only.
 * @returns the report; `ok` is false when any step found a problem (never throws for a finding)
 * @throws on a database or storage error
 */
export async function checkRestored(
  db: Kysely<Database>,
  storage: FileStorage,
  opts: RestoreCheckOptions,
): Promise<RestoreReport> {
  const audit = await auditLedger(db);
  const ledger: RestoreReport['ledger'] = audit.ok
    ? { ok: true, treeSize: audit.treeSize, rootHash: audit.rootHash }
    : { ok: false, reason: `${audit.reason}${audit.leafIndex === null ? '' : ` (leaf ${audit.leafIndex})`}` };
  const published: RestoreReport['published'] = ledger.ok
    ? await againstPublished(db, ledger.treeSize, ledger.rootHash, opts)
    : { ok: false, reason: 'not compared: the restored ledger is not self-consistent' };
  const files = await checkFiles(db, storage, opts.hashFiles ?? false);
  const filesOk = files.missing + files.wrongSize + files.wrongHash === 0;
  return { ok: ledger.ok && published.ok && filesOk, ledger, published, files };
}

/** The report as the lines the CLI prints (English, for operators). */
export function reportLines(r: RestoreReport): string[] {
  const lines = [
    r.ledger.ok
      ? `ledger: consistent, ${r.ledger.treeSize} entries, root ${r.ledger.rootHash}`
      : `ledger: NOT consistent: ${r.ledger.reason}`,
    r.published.ok
      ? `published checkpoint: the restored ledger extends the published tree of ${r.published.treeSize} entries (nothing published was lost or rewritten)`
      : `published checkpoint: FAILED: ${r.published.reason}`,
    `files: ${r.files.checked} checked, ${r.files.missing} missing, ${r.files.wrongSize} of another size, ${r.files.wrongHash} with another SHA-256`,
    ...r.files.examples.map((e) => `  ${e}`),
    r.ok ? 'restore check passed' : 'restore check FAILED',
  ];
  return lines;
}
