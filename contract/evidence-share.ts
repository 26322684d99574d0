/**
 * The certificate and share calls of the evidence area (spec 01 §7 `/api/check/downCertificate`,
 * `/api/share/downBaoquan`, `/api/share/getMpsInfo`, `/api/data/downContract`; spec 01 §8 "certificate being
 * generated"; docs/decisions/027-spec-remainders.md): their bodies, answers and the certificate PDF paths. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { EvidenceMsg, type EvidenceKindName } from './evidence.ts';
import { Msg } from './messages.ts';

/**
 * Same-site path of a certificate PDF, printed by the gateway (decision 007): `/attestation/<baoquan>.pdf`, or the
 * English certificate's `/English/attestation/<baoquan>.pdf`.
 */
export function certificatePdfPath(baoquan: string, lang: 'zh' | 'en' = 'zh'): string {
  return `${lang === 'en' ? '/English' : ''}/attestation/${encodeURIComponent(baoquan)}.pdf`;
}

/**
 * The certificate PDF calls (`/api/check/downCertificate`, `/api/data/downContract`) → the PDF paths of both
 * languages (same-site, public like the certificate link itself, spec 01 §1).
 */
export interface CertificateDownloadData {
  baoquan: string;
  /** The Chinese certificate PDF ({@link certificatePdfPath}). */
  downUrl: string;
  /** The English certificate PDF. */
  englishUrl: string;
}

/**
 * True when an answer's data is the spec's "certificate being generated" value (spec 01 §8, spec 02 §8): the
 * screen shows its message as information, not as an error, whatever the code.
 */
export function isCertificateGenerating(res: { data: unknown }): boolean {
  return res.data === EvidenceMsg.certificateGenerating;
}

/** `POST /api/share/downBaoquan {baoquan, code?}`: no code → the caller must be the logged-in owner. */
export const ShareDownloadBody = z.object({
  baoquan: z
    .string({ error: EvidenceMsg.evidenceNotFound })
    .trim()
    .min(1, EvidenceMsg.evidenceNotFound)
    .max(64, EvidenceMsg.evidenceNotFound),
  code: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(30, Msg.tooLong('提取码', 30)).optional(),
  ),
});
/** `POST /api/share/getMpsInfo {baoquan}`. */
export const MobileInfoBody = ShareDownloadBody.pick({ baoquan: true });
/** `POST /api/data/downContract {dataId}` (owner). */
export const OwnerCertificateBody = z.object({
  dataId: z.coerce
    .number({ error: EvidenceMsg.evidenceNotFound })
    .int(EvidenceMsg.evidenceNotFound)
    .positive(EvidenceMsg.evidenceNotFound),
});

/**
 * `POST /api/share/getMpsInfo` → what a phone shows beside a previewed file (spec 01 §2.1 mobile preview routes): the
 * public face of the evidence (no owner data, no certificate HTML), its file's name and size (bytes), whether its
 * bytes can be downloaded (`isDownload`, spec 01 §4), and the certificate page and PDF paths.
 */
export interface MobilePreviewInfo {
  baoquan: string;
  title: string;
  kind: EvidenceKindName;
  fileType: number;
  fileName: string;
  fileSize: number;
  filehash: string;
  chainhash: string;
  saveTime: string;
  deletedAt: string | null;
  isDownload: 0 | 1;
  certificateUrl: string;
  pdfUrl: string;
}
