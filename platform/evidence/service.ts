/**
 * Evidence persistence (spec 01 §2.1–2.4, §3; docs/decisions/006-evidence-kinds.md): saving an evidence of any
 * kind (file, hash, property, app) with its ledger entry in one transaction, the owner's look-ups, and the
 * certificate view of spec 01 §2.3, §3. The lists and labels of spec 01 §2.4 are in `platform/evidence/list.ts`.
 */
import { announceObject, clearIntent, withdrawObject } from '../files/intents.ts';
import type { Kysely } from 'kysely';
import { deviceOf, type findByBaoquan } from './lookup.ts';

export { findByBaoquan, findBySha256 } from './lookup.ts';
import { EvidenceMsg, type EvidenceView, type SaveEvidenceData } from '../../contract/evidence.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { artefactsOf } from '../capture/artefacts.ts';
import { parseMusicWork } from '../music/certificate-music.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceKind, EvidenceRow, EvidencesTable } from './schema.ts';
import { notify } from '../notification/notifications.ts';
import { recordEvidenceEvent } from '../events/events.ts';
import { signalEventsCommitted } from '../events/signal.ts';
import { appendLeaf, ownerRef, withLedgerTransaction } from '../ledger/ledger.ts';
import { newBaoquan, storageKeyFor } from './baoquan.ts';
import { parseCaptureMeta, parseProcessMeta } from './certificate-web.ts';
import { formatBeijingDate, renderCertificateHtml } from './certificate.ts';
import { parseDataFields } from './property.ts';
import type { DetectedType } from './filetype.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';

/** Columns only some kinds fill: device fields of app capture, the user-data summary (spec 01 §3). */
type ExtraColumn = 'app_type' | 'config_name' | 'config_model_name' | 'config_version' | 'config_processor';
export type EvidenceExtras = Partial<
  Pick<EvidencesTable, ExtraColumn | 'config_core' | 'data_lines' | 'data_fields' | 'work_json'>
>;

/** What the save call stores besides the bytes. */
export interface NewEvidence {
  userId: number;
  title: string;
  label: string;
  fileName: string;
  /**
   * The received bytes (moved into storage), or for hash evidence `{path: null}` with the submitted SHA-256 and the
   * declared size (bytes; 0 when not given): nothing is stored.
   */
  file: ReceivedFile | { path: null; size: number; sha256: string };
  type: DetectedType;
  /** Default 'file'. */
  kind?: EvidenceKind;
  extras?: EvidenceExtras;
  /**
   * More writes that must commit with the evidence or not at all (a capture job marked done with it; decision 037):
   * run after the evidence row and its ledger entry (the file is stored by then); throwing rolls everything back.
   */
  alsoInTransaction?: (trx: Kysely<Database>, evidenceId: number) => Promise<void>;
}

/**
 * Stores `ev`: moves the temp file into storage, then inserts the evidence row, appends its ledger entry, notifies
 * the owner (spec 01 §3 News) and writes its `saved` event (platform/events; decision 059) in one transaction, and
 * wakes the event consumers once it committed: every kind saved here gets its certificate PDF rendered ahead, whatever
 * route saved it. The move runs before that transaction, outside the ledger's lock
 * (held across processes), so saves wait for one another only for their database work, not for each other's copy to
 * S3 (decision 046). If the move or the transaction fails, the stored file is deleted; the temp file is the caller's
 * to delete.
 * @returns `{id, baoquan, filehash, chainhash}` of the contract
 */
export async function saveEvidence(
  pdb: PlatformDb,
  storage: FileBucket,
  ev: NewEvidence,
): Promise<SaveEvidenceData> {
  const now = nowSeconds();
  const baoquan = newBaoquan(now);
  const kind = ev.kind ?? 'file';
  const tempPath = ev.file.path;
  // Hash evidence holds no bytes: an empty storage key says so everywhere.
  const storageKey = tempPath === null ? '' : storageKeyFor(baoquan);
  // a crash between the move and the commit leaves an intent, which the files.sweep job clears (files/intents.ts)
  if (tempPath !== null) await announceObject(pdb.db, 'evidence', storageKey);
  try {
    if (tempPath !== null) await storage.putFile(tempPath, storageKey);
    const saved = await withLedgerTransaction(pdb, async (trx) => {
      const { id } = await trx
        .insertInto('evidences')
        .values({
          baoquan,
          user_id: ev.userId,
          title: ev.title,
          label: ev.label,
          file_name: ev.fileName,
          file_size: ev.file.size,
          file_type: ev.type.fileType,
          mime: ev.type.mime,
          sha256: ev.file.sha256,
          storage_key: storageKey,
          status: 1,
          created_at: now,
          kind,
          ...ev.extras,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const entry = await appendLeaf(
        trx,
        id,
        {
          baoquan,
          sha256: ev.file.sha256,
          size: ev.file.size,
          fileType: ev.type.fileType,
          ownerRef: ownerRef(ev.userId),
          savedAt: now,
          // the ledger record carries the evidence kind (contract LedgerRecord.kind); absent means file, as in the
          // records written before evidence kinds (docs/decisions/006-evidence-kinds.md)
          ...(kind === 'file' ? {} : { kind }),
        },
        now,
      );
      await notify(trx, ev.userId, EvidenceMsg.savedNews(ev.title, baoquan), now);
      await recordEvidenceEvent(trx, { kind: 'saved', evidenceId: id, baoquan }, now);
      await ev.alsoInTransaction?.(trx, id);
      if (tempPath !== null) await clearIntent(trx, 'evidence', storageKey);
      return { id, baoquan, filehash: ev.file.sha256, chainhash: entry.leafHash };
    });
    signalEventsCommitted();
    return saved;
  } catch (err) {
    if (tempPath !== null) await withdrawObject(pdb.db, storage, 'evidence', storageKey);
    throw err;
  }
}

/** The evidences among `ids` that `userId` owns (any order; others' and unknown ids are simply absent). */
export async function findOwnedMany(
  db: Kysely<Database>,
  ids: number[],
  userId: number,
): Promise<EvidenceRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('evidences')
    .selectAll()
    .where('id', 'in', ids)
    .where('user_id', '=', userId)
    .execute();
}

/** The evidence `id` if `userId` owns it, else undefined (someone else's id reads as not found). */
export function findOwned(
  db: Kysely<Database>,
  id: number,
  userId: number,
): Promise<EvidenceRow | undefined> {
  return db
    .selectFrom('evidences')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** An evidence as {@link findByBaoquan} returns it. */
export type FoundEvidence = NonNullable<Awaited<ReturnType<typeof findByBaoquan>>>;

/**
 * True when the evidence's original bytes can be served: not hash evidence (no bytes held), not deleted by the
 * owner, and storage holds exactly `file_size` bytes.
 */
export async function hasStoredBytes(
  storage: FileBucket,
  ev: Pick<EvidenceRow, 'kind' | 'deleted_at' | 'storage_key' | 'file_size'>,
): Promise<boolean> {
  if (ev.kind === 'hash' || ev.deleted_at !== null || ev.storage_key === '') return false;
  return (await storage.size(ev.storage_key)) === ev.file_size;
}

/**
 * Builds the contract EvidenceView (spec 01 §2.3, §3) for a caller (`viewerId` null when anonymous): isSelf and id
 * only for the owner; isDownload 1 when storage holds the bytes (always 0 for hash or deleted evidence); kind,
 * deletedAt "YYYY-MM-DD" (Beijing), leafIndex (0-based ledger position), isApp and the device fields (empty strings
 * when absent), userData `{line, fields}` for user data (else null), and the certificate HTML of the kind.
 */
export async function buildView(
  storage: FileBucket,
  ev: FoundEvidence,
  viewerId: number | null,
): Promise<EvidenceView> {
  const isSelf = viewerId !== null && viewerId === ev.user_id;
  const downloadable = await hasStoredBytes(storage, ev);
  const saveTime = formatBeijing(ev.created_at);
  const deletedAt = ev.deleted_at === null ? null : formatBeijingDate(ev.deleted_at);
  const userData =
    ev.kind === 'property' ? { line: ev.data_lines ?? 0, fields: parseDataFields(ev.data_fields) } : null;
  const device = deviceOf(ev);
  return {
    baoquan: ev.baoquan,
    title: ev.title,
    fileName: ev.file_name,
    fileSize: ev.file_size,
    fileType: ev.file_type,
    saveTime,
    html: renderCertificateHtml({
      kind: ev.kind,
      baoquan: ev.baoquan,
      title: ev.title,
      fileName: ev.file_name,
      fileSize: ev.file_size,
      fileType: ev.file_type,
      saveTime,
      ownerMobile: ev.owner_mobile,
      sha256: ev.sha256,
      chainhash: ev.chainhash,
      deletedAt,
      userData,
      device,
      capture: ev.kind === 'web' ? parseCaptureMeta(ev.capture_meta) : undefined,
      steps: ev.kind === 'process' ? parseProcessMeta(ev.capture_meta) : undefined,
      music: ev.kind === 'music' ? parseMusicWork(ev.work_json) : undefined,
    }),
    chainhash: ev.chainhash,
    filehash: ev.sha256,
    isSelf: isSelf ? 1 : 0,
    isDownload: downloadable ? 1 : 0,
    isApp: ev.kind === 'app' ? 1 : 0,
    ...device,
    userData,
    id: isSelf ? ev.id : null,
    kind: ev.kind,
    deletedAt,
    leafIndex: Number(ev.leaf_index),
    capture: captureFacts(ev),
  };
}

/** The capture part of the view: how many screenshots, whether a video (null: not a capture, or data deleted). */
function captureFacts(ev: FoundEvidence): EvidenceView['capture'] {
  if ((ev.kind !== 'web' && ev.kind !== 'process') || ev.deleted_at !== null) return null;
  const { shots, video } = artefactsOf(ev.capture_meta);
  return { shots: shots.length, video: video !== null };
}
