/**
 * Public verification lookups of `/queryAuthentication` (spec 01 §2.1, §7): an evidence number → a short-lived
 * view token → the public face of that evidence, and the lookup by SHA-256. No owner data is answered (no mobile, no
 * id); deleted evidence is found too, with its `deletedAt`. Every call counts against one budget per client IP held
 * in the database (core/attempts.ts), so every platform instance shares it (docs/decisions/006-evidence-kinds.md).
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import type { CertificateDownloadData } from '../../contract/evidence-share.ts';
import { type PublicEvidence, VerifyMsg } from '../../contract/verify.ts';
import { isThrottled, recordFailure, type AttemptPolicy } from '../core/attempts.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceRow } from '../evidence/schema.ts';
import { formatBeijingDate } from '../evidence/certificate.ts';
import { certificateDownload } from '../evidence/download-service.ts';
import type { DownloadSigner } from '../evidence/download.ts';
import { findByBaoquan, findBySha256 } from '../evidence/service.ts';

/** 30 public lookups per client IP a minute (all three calls together). */
export const PUBLIC_LOOKUP_POLICY: AttemptPolicy = { scope: 'publicLookup', max: 30, windowSeconds: 60 };
/** Lifetime of a view token, seconds. */
export const VIEW_TOKEN_TTL_SECONDS = 600;
/** Most evidences byHash answers. */
export const BY_HASH_LIMIT = 20;

/** The public face of an evidence (contract PublicEvidence). */
export function toPublicEvidence(ev: EvidenceRow & { chainhash: string }): PublicEvidence {
  return {
    baoquan: ev.baoquan,
    title: ev.title,
    kind: ev.kind,
    fileType: ev.file_type,
    filehash: ev.sha256,
    chainhash: ev.chainhash,
    saveTime: formatBeijing(ev.created_at),
    deletedAt: ev.deleted_at === null ? null : formatBeijingDate(ev.deleted_at),
  };
}

/** Counts one lookup of client `ip`. @throws ApiError 429 `Msg.tooManyRequests` once the budget is spent */
export async function countLookup(db: Kysely<Database>, ip: string): Promise<void> {
  if (await isThrottled(db, PUBLIC_LOOKUP_POLICY, ip)) {
    throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
  }
  await recordFailure(db, PUBLIC_LOOKUP_POLICY, ip);
}

/**
 * A view token for evidence number `no`, valid 10 minutes (`now` unix seconds).
 * @throws ApiError 404 `VerifyMsg.evidenceNumberNotFound` for an unknown number
 */
export async function viewTokenFor(
  db: Kysely<Database>,
  signer: DownloadSigner,
  no: string,
  now: number,
): Promise<string> {
  const ev = await findByBaoquan(db, no);
  if (!ev) throw new ApiError(ApiCode.NOT_FOUND, VerifyMsg.evidenceNumberNotFound);
  return signer.viewToken(ev.baoquan, now, VIEW_TOKEN_TTL_SECONDS);
}

/**
 * The public face of evidence `no` for a live view token of it. A bad token answers code 400 (not 403: the legacy
 * client reads 403 as "log in again", spec 01 §8).
 * @throws ApiError 400 `VerifyMsg.viewTokenInvalid`, 404 `VerifyMsg.evidenceNumberNotFound`
 */
export async function publicView(
  db: Kysely<Database>,
  signer: DownloadSigner,
  q: { no: string; viewToken: string },
  now: number,
): Promise<PublicEvidence> {
  if (!signer.verifyViewToken(q.no, q.viewToken, now)) {
    throw new ApiError(ApiCode.BAD_REQUEST, VerifyMsg.viewTokenInvalid);
  }
  const ev = await findByBaoquan(db, q.no);
  if (!ev) throw new ApiError(ApiCode.NOT_FOUND, VerifyMsg.evidenceNumberNotFound);
  return toPublicEvidence(ev);
}

/** The public faces of the evidences with SHA-256 `hash`, newest first, at most {@link BY_HASH_LIMIT}. */
export async function byHash(db: Kysely<Database>, hash: string): Promise<PublicEvidence[]> {
  return (await findBySha256(db, hash, BY_HASH_LIMIT)).map(toPublicEvidence);
}

/**
 * The certificate PDF paths of evidence `no` for a live view token of it (spec 01 §7 downCertificate; decision 027).
 * Deleted data keeps its certificate (it says the data was deleted).
 * @throws ApiError 400 `VerifyMsg.viewTokenInvalid`, 404 `VerifyMsg.evidenceNumberNotFound` (as {@link publicView})
 */
export async function certificateFor(
  db: Kysely<Database>,
  signer: DownloadSigner,
  q: { no: string; viewToken: string },
  now: number,
): Promise<CertificateDownloadData> {
  const ev = await publicView(db, signer, q, now);
  return certificateDownload(ev.baoquan);
}
