/**
 * The public verification area's contract (spec 01 §2.8 /queryAuthentication, §7): the evidence-number lookup (bqno →
 * viewToken → bqview) and the lookup by SHA-256. Public calls, rate-limited per client by the platform.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Sha256Hex, type EvidenceKindName } from './evidence.ts';
import { Msg } from './messages.ts';

/** Messages of the public verification pages (ours; the spec shows none). */
export const VerifyMsg = {
  evidenceNumberNotFound: '未查询到该保全编号的证据',
  viewTokenInvalid: '查询凭证无效或已过期，请重新查询',
} as const;

export const VerifyPaths = {
  /** `POST {no}` → `{viewToken}`: a short-lived token for one evidence number (public; rate-limited per client). */
  bqno: '/api/check/bqno',
  /** `POST {viewToken, no}` → PublicEvidence. */
  bqview: '/api/check/bqview',
  /** `POST {hash}` → PublicEvidence[] whose SHA-256 equals `hash` (public; rate-limited per client). */
  byHash: '/api/check/byHash',
  /**
   * `POST {viewToken, no}` → CertificateDownloadData: the certificate PDF of the public check page, for a live
   * view token of that number (spec 01 §7; decision 027). Rate-limited with the other lookups.
   */
  downCertificate: '/api/check/downCertificate',
  /**
   * `POST` (no body) → LedgerPublicKey: the key /verify checks an uploaded package against, counted as one lookup of
   * the client, so the package checks share the lookups' budget (decision 035).
   */
  packageKey: '/api/check/packageKey',
} as const;

/** What the public verification pages show of an evidence (no owner data). */
export interface PublicEvidence {
  baoquan: string;
  title: string;
  kind: EvidenceKindName;
  fileType: number;
  filehash: string;
  chainhash: string;
  saveTime: string;
  /** "YYYY-MM-DD" when the owner deleted the stored data, else null. */
  deletedAt: string | null;
}

export const NoBody = z.object({
  no: z
    .string({ error: Msg.required('保全编号') })
    .trim()
    .min(1, Msg.required('保全编号'))
    .max(64),
});

/** `POST {viewToken, no}` of bqview. `viewToken` is what bqno answered. */
export const ViewTokenBody = z.object({
  viewToken: z
    .string({ error: VerifyMsg.viewTokenInvalid })
    .trim()
    .min(1, VerifyMsg.viewTokenInvalid)
    .max(200),
  no: NoBody.shape.no,
});
/** bqno → `{viewToken}`: `<exp>.<hex HMAC>`, valid 10 minutes for that one number. */
export interface ViewTokenData {
  viewToken: string;
}
/** `POST {viewToken, no}` of downCertificate (the same proof of a lookup as bqview). */
export const DownCertificateBody = ViewTokenBody;
/** `POST {hash}` of byHash. */
export const ByHashBody = z.object({ hash: Sha256Hex });
