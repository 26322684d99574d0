/**
 * Evidence calls of the walking skeleton (spec 01 §3, §7): save, list, labels, view, owner download, extraction-code
 * download.
 */
import { z } from 'zod';
import { EVIDENCE_PAGE_SIZE } from '../evidence.ts';
import { freeText } from '../validators.ts';
import { Msg } from '../messages.ts';

export const EvidencePaths = {
  save: '/api/data/save',
  list: '/api/data/getList',
  labels: '/api/data/getLabelList',
  view: '/api/share/getView',
  ownerDownload: '/api/data/downBaoquan',
  codeDownload: '/api/check/checkNo',
} as const;

/** Text fields of the multipart `POST /api/data/save` (the `file` part carries the bytes). */
export const SaveEvidenceFields = z.object({
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
export type SaveEvidenceFields = z.infer<typeof SaveEvidenceFields>;

/** `POST /api/data/save` → result. `filehash` is the SHA-256 of the bytes, `chainhash` the ledger entry hash. */
export interface SaveEvidenceData {
  id: number;
  baoquan: string;
  filehash: string;
  chainhash: string;
}

const optionalInt = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.coerce.number().int().min(min).max(max).optional(),
  );

/**
 * `GET /api/data/getList` query (spec 01 §7): startTime/endTime are unix seconds (endTime already at the end of the
 * chosen day), type 0–5, page from 1, limit 20.
 */
export const EvidenceListQuery = z.object({
  page: optionalInt(1, 1_000_000).transform((v) => v ?? 1),
  limit: optionalInt(1, 100).transform((v) => v ?? EVIDENCE_PAGE_SIZE),
  type: optionalInt(0, 5).transform((v) => v ?? 0),
  label: z.string().trim().max(30).optional(),
  keyword: z.string().trim().max(100).optional(),
  startTime: optionalInt(0, 4_102_444_800),
  endTime: optionalInt(0, 4_102_444_800),
  v: z.string().optional(),
});
export type EvidenceListQuery = z.infer<typeof EvidenceListQuery>;

/** One row of the evidence list (spec 01 §3). saveTime is "YYYY-MM-DD HH:mm:ss" in Beijing time. */
export interface EvidenceListItem {
  id: number;
  baoquan: string;
  title: string;
  fileType: number;
  label: string;
  saveTime: string;
  /** file | hash | property | app (issue 3; added by the platform, optional for older fixtures). */
  kind?: 'file' | 'hash' | 'property' | 'app';
  /** "YYYY-MM-DD" (Beijing) when the owner deleted the stored data, else null (issue 3). */
  deletedAt?: string | null;
}
export interface EvidenceListData {
  list: EvidenceListItem[];
  count: number;
}
export interface LabelItem {
  label: string;
}

/**
 * `GET /api/share/getView?baoquan=` → the evidence view (spec 01 §3). `isSelf` 1 when the caller owns it;
 * `isDownload` 1 when the stored bytes are there. `html` is the certificate body rendered by the platform.
 */
export interface EvidenceView {
  baoquan: string;
  title: string;
  fileName: string;
  fileSize: number;
  fileType: number;
  saveTime: string;
  html: string;
  chainhash: string;
  filehash: string;
  isSelf: 0 | 1;
  isDownload: 0 | 1;
  isApp: 0 | 1;
  appType: string;
  configName: string;
  configModelName: string;
  configVersion: string;
  configProcessor: string;
  configCore: string;
  userData: { line: number; fields: { fieldName: string; exampleValue: string }[] } | null;
  /** Evidence id, present only for the owner (isSelf 1), for `downBaoquan`. */
  id: number | null;
  /** file | hash | property | app (issue 3). */
  kind: 'file' | 'hash' | 'property' | 'app';
  /** "YYYY-MM-DD" (Beijing) when the owner deleted the stored data; the ledger entry stays (issue 3). */
  deletedAt: string | null;
  /** Position of the evidence in the ledger (issue 3). */
  leafIndex: number;
}

/** `POST /api/data/downBaoquan {dataId}` (owner). */
export const OwnerDownloadBody = z.object({ dataId: z.coerce.number().int().positive() });
/** `POST /api/check/checkNo {code, baoquan}` (anyone with the owner's extraction code). */
export const CodeDownloadBody = z.object({
  code: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string({ error: Msg.extractCodeRequired }).trim().max(30, Msg.tooLong('提取码', 30)),
  ),
  baoquan: z.string().trim().min(1).max(64),
});
/**
 * Both download calls → `{ downUrl, packageUrl }`: signed, expiring same-origin URLs. `downUrl` streams the original
 * bytes; `packageUrl` (`/attestation/<baoquan>/package.zip?exp=&sig=`, served by the gateway) the evidence package:
 * original (or data.csv), certificate.pdf and proof.json (issue 3).
 */
export interface DownloadData {
  downUrl: string;
  packageUrl: string;
}
