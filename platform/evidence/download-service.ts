/**
 * Who may download an evidence and how (spec 01 §2.4, §4, §8): the owner, or anyone with the owner's extraction code
 * (throttled per client and evidence), gets signed, expiring URLs of the original and of the package; batch download
 * signs one package URL per selected evidence; the file route and the gateway's package authorization check those
 * signatures. Deleted data answers `evidenceDeleted`, bytes missing from storage `evidenceMissing`.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  BATCH_MAX_ITEMS,
  type BatchDownloadData,
  type DownloadData,
  EvidenceMsg,
  type PackageAuthorization,
} from '../../contract/evidence.ts';
import { type CertificateDownloadData, certificatePdfPath } from '../../contract/evidence-share.ts';
import { Msg } from '../../contract/messages.ts';
import { EXTRACT_CODE_POLICY, clearFailures, isThrottled, recordFailure } from '../core/attempts.ts';
import { safeEqual } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceRow } from './schema.ts';
import type { FileBucket } from '../files/storage.ts';
import { BATCH_ZIP_PATH, packagePath, type DownloadSigner } from './download.ts';
import { findByBaoquan, findOwned, findOwnedMany, hasStoredBytes } from './service.ts';

/** What the download calls need. `ttlSeconds`: lifetime of the URLs they sign (DOWNLOAD_URL_TTL_SECONDS). */
export interface DownloadDeps {
  db: Kysely<Database>;
  storage: FileBucket;
  signer: DownloadSigner;
  ttlSeconds: number;
}

const notFound = (msg: string, httpStatus?: number) => new ApiError(ApiCode.NOT_FOUND, msg, httpStatus);
const forbidden = (msg: string) => new ApiError(ApiCode.FORBIDDEN, msg, 403);

/**
 * The two download URLs of an evidence the caller may download: `downUrl` of the original ('' for hash evidence,
 * which has none) and `packageUrl` of the ZIP.
 * @param now unix seconds
 * @throws ApiError 404 `evidenceDeleted` when the owner deleted the data, `evidenceMissing` when bytes are absent
 */
export async function downloadData(deps: DownloadDeps, ev: EvidenceRow, now: number): Promise<DownloadData> {
  if (ev.deleted_at !== null) throw notFound(EvidenceMsg.evidenceDeleted);
  const packageUrl = deps.signer.packageUrl(ev.baoquan, now, deps.ttlSeconds);
  if (ev.kind === 'hash') return { downUrl: '', packageUrl };
  if (!(await hasStoredBytes(deps.storage, ev))) throw notFound(EvidenceMsg.evidenceMissing);
  return { downUrl: deps.signer.url(ev.baoquan, now, deps.ttlSeconds), packageUrl };
}

/**
 * The owner's download of evidence `dataId`.
 * @throws ApiError 404 `evidenceNotFound` when it is not `userId`'s; see {@link downloadData}
 */
export async function ownerDownload(
  deps: DownloadDeps,
  dataId: number,
  userId: number,
  now: number,
): Promise<DownloadData> {
  const ev = await findOwned(deps.db, dataId, userId);
  if (!ev) throw notFound(EvidenceMsg.evidenceNotFound);
  return downloadData(deps, ev, now);
}

/**
 * The download of evidence `baoquan` by its owner's extraction code. Wrong codes count per (client IP, evidence)
 * against EXTRACT_CODE_POLICY; a right code clears the count.
 * @throws ApiError 429 when throttled, 404 unknown evidence, 400 `extractCodeWrong`; see {@link downloadData}
 */
export async function codeDownload(
  deps: DownloadDeps,
  input: { code: string; baoquan: string; ip: string },
  now: number,
): Promise<DownloadData> {
  const { db } = deps;
  const subject = `${input.ip}|${input.baoquan}`;
  if (await isThrottled(db, EXTRACT_CODE_POLICY, subject)) {
    throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
  }
  const ev = await findByBaoquan(db, input.baoquan);
  if (!ev) throw notFound(EvidenceMsg.evidenceNotFound);
  const owner = await db
    .selectFrom('users')
    .select('extract_code')
    .where('id', '=', ev.user_id)
    .executeTakeFirst();
  if (!owner || !safeEqual(owner.extract_code, input.code)) {
    await recordFailure(db, EXTRACT_CODE_POLICY, subject);
    throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.extractCodeWrong);
  }
  await clearFailures(db, EXTRACT_CODE_POLICY, subject);
  return downloadData(deps, ev, now);
}

/**
 * The distinct positive ids of a batch's comma list (malformed tokens are dropped).
 * @throws ApiError 400 `selectEvidenceToDownload` when the list is empty, `batchTooMany` over 100 ids
 */
export function batchIds(dataIdStr: string): number[] {
  const tokens = dataIdStr
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (tokens.length === 0) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.selectEvidenceToDownload);
  const ids = [...new Set(tokens.filter((t) => /^\d{1,15}$/.test(t)).map(Number))].filter((n) => n > 0);
  if (ids.length > BATCH_MAX_ITEMS)
    throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.batchTooMany(BATCH_MAX_ITEMS));
  return ids;
}

/**
 * Signs a package URL for each of `ids` that `userId` may download, in the order given, and one batch ZIP URL
 * holding them all. Unknown, foreign and deleted ids are skipped, and so are files whose bytes are missing; hash
 * evidence has a package (proof + certificate) but no bytes.
 * @throws ApiError 400 `noDownloadFiles` when none is left
 */
export async function batchDownload(
  deps: DownloadDeps,
  ids: number[],
  userId: number,
  now: number,
): Promise<BatchDownloadData> {
  const rows = new Map((await findOwnedMany(deps.db, ids, userId)).map((r) => [r.id, r]));
  const exp = now + deps.ttlSeconds;
  const list: BatchDownloadData['list'] = [];
  const items: string[] = [];
  for (const id of ids) {
    const ev = rows.get(id);
    if (!ev || ev.deleted_at !== null) continue;
    if (ev.kind !== 'hash' && !(await hasStoredBytes(deps.storage, ev))) continue;
    const item = deps.signer.batchItem(ev.baoquan, exp);
    const sig = item.slice(item.lastIndexOf('.') + 1);
    list.push({
      id: ev.id,
      baoquan: ev.baoquan,
      title: ev.title,
      packageUrl: `${packagePath(ev.baoquan)}?exp=${exp}&sig=${sig}`,
    });
    items.push(item);
  }
  if (list.length === 0) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.noDownloadFiles);
  return { list, batchUrl: `${BATCH_ZIP_PATH}?items=${items.join(',')}` };
}

/**
 * The evidence whose original a signed download URL (`/api/file/<baoquan>?exp=&sig=`) may stream.
 * @throws ApiError HTTP 403 on a bad or expired signature, HTTP 404 `evidenceDeleted` / `evidenceMissing`
 */
export async function servableFile(
  deps: DownloadDeps,
  q: { baoquan: string; exp?: string; sig?: string },
  now: number,
): Promise<EvidenceRow> {
  if (!deps.signer.verify(q.baoquan, q.exp, q.sig, now)) throw forbidden(EvidenceMsg.downloadLinkInvalid);
  const ev = await findByBaoquan(deps.db, q.baoquan);
  if (ev && ev.deleted_at !== null) throw notFound(EvidenceMsg.evidenceDeleted, 404);
  if (!ev || !(await hasStoredBytes(deps.storage, ev))) throw notFound(EvidenceMsg.evidenceMissing, 404);
  return ev;
}

/**
 * What the gateway needs to build the package ZIP of `baoquan`, when the package signature is valid.
 * @throws ApiError HTTP 403 on a bad or expired signature, an unknown number or deleted data; HTTP 404 when a file's
 *   bytes are missing
 */
export async function authorizePackage(
  deps: DownloadDeps,
  q: { baoquan: string; exp?: string; sig?: string; purpose?: string },
  now: number,
): Promise<PackageAuthorization> {
  if (q.purpose !== 'package' || !deps.signer.verifyPackage(q.baoquan, q.exp, q.sig, now)) {
    throw forbidden(EvidenceMsg.downloadLinkInvalid);
  }
  const ev = await findByBaoquan(deps.db, q.baoquan);
  if (!ev) throw forbidden(EvidenceMsg.downloadLinkInvalid);
  if (ev.deleted_at !== null) throw forbidden(EvidenceMsg.evidenceDeleted);
  const hashOnly = ev.kind === 'hash';
  if (!hashOnly && !(await hasStoredBytes(deps.storage, ev)))
    throw notFound(EvidenceMsg.evidenceMissing, 404);
  return {
    baoquan: ev.baoquan,
    fileName: hashOnly ? null : ev.file_name,
    kind: ev.kind,
    title: ev.title,
    downUrl: hashOnly ? null : deps.signer.url(ev.baoquan, now, deps.ttlSeconds),
  };
}

/**
 * The certificate (share) page's package download of `baoquan` (spec 01 §2.3, §6; decision 027): the logged-in
 * owner (`viewerId`) needs no code; anyone else gives the owner's extraction code, checked and throttled as
 * {@link codeDownload} does.
 * @throws ApiError 404 `evidenceNotFound` for an unknown number, 400 `extractCodeRequired` when a non-owner gives no
 *   code; see {@link codeDownload} and {@link downloadData}
 */
export async function shareDownload(
  deps: DownloadDeps,
  input: { baoquan: string; code?: string; ip: string; viewerId: number | null },
  now: number,
): Promise<DownloadData> {
  const ev = await findByBaoquan(deps.db, input.baoquan);
  if (!ev) throw notFound(EvidenceMsg.evidenceNotFound);
  if (input.viewerId !== null && input.viewerId === ev.user_id) return downloadData(deps, ev, now);
  if (input.code === undefined) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.extractCodeRequired);
  return codeDownload(deps, { code: input.code, baoquan: ev.baoquan, ip: input.ip }, now);
}

/**
 * The certificate PDF paths of evidence `baoquan` (decision 007: the gateway prints them). The certificate exists as
 * soon as the evidence is saved (its ledger entry is written in the same transaction), so this platform never
 * answers the spec's "certificate being generated" (spec 01 §8); a legacy upstream may, and the screens show it as
 * information (contract `isCertificateGenerating`).
 */
export function certificateDownload(baoquan: string): CertificateDownloadData {
  return {
    baoquan,
    downUrl: certificatePdfPath(baoquan, 'zh'),
    englishUrl: certificatePdfPath(baoquan, 'en'),
  };
}
