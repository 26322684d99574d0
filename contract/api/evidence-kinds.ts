/**
 * Issue 3 evidence calls beyond the walking skeleton (spec 01 §2.2–2.4, §3, §4, §7): hash evidence, user-data
 * evidence, labels, deletion, batch download and the public verification lookups of /queryAuthentication.
 */
import { z } from 'zod';
import { freeText } from '../validators.ts';
import { Msg } from '../messages.ts';

export const EvidenceKindPaths = {
  /** `POST {hash, title, label?, fileName?, fileSize?}` → SaveEvidenceData (the file never leaves the user). */
  saveHash: '/api/data/saveHash',
  /** `POST` multipart `{title, label?, file (CSV or XLSX)}` or form `{title, label?, fields, rows}` → SaveEvidenceData. */
  saveProperty: '/api/data/saveProperty',
  /** `GET` same query as getList → EvidenceListData of hash evidence. (getList `v=property` lists user data.) */
  hashList: '/api/data/getHashSaveList',
  /** `GET` → LabelItem[] of hash evidence. */
  hashLabels: '/api/data/getHashLabelList',
  /** `POST {dataId, label}` → sets (or clears, with '') the label of one's own evidence. */
  labelSave: '/api/Evidences/labelSave',
  /** `GET|POST {dataId}` → deletes the stored data of one's own evidence; the ledger entry stays. */
  delData: '/api/data/delData',
  /** `POST {dataIdStr}` (comma list of ids) → BatchDownloadData. */
  downloadBatch: '/api/data/downloadBatch',
  /** `POST {no}` → `{viewToken}`: a short-lived token for one evidence number (public; rate-limited per client). */
  bqno: '/api/check/bqno',
  /** `POST {viewToken, no}` → PublicEvidence. */
  bqview: '/api/check/bqview',
  /** `POST {hash}` → PublicEvidence[] whose SHA-256 equals `hash` (public; rate-limited per client). */
  byHash: '/api/check/byHash',
} as const;

/** 64 hexadecimal characters, any case (normalised to lower case). */
export const Sha256Hex = z
  .string({ error: Msg.required('哈希值') })
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, '请输入64位十六进制SHA-256哈希值')
  .transform((s) => s.toLowerCase());

export const SaveHashBody = z.object({
  hash: Sha256Hex,
  title: freeText('证据名称', 100, true),
  label: freeText('标签', 30),
  fileName: freeText('文件名称', 200),
  fileSize: z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.coerce.number().int().min(0).optional(),
  ),
});
export type SaveHashBody = z.infer<typeof SaveHashBody>;

/** User data entered in the form: `fields` names and `rows` of values (JSON text of string[] and string[][]). */
export const PropertyRowsLimits = { maxFields: 50, maxRows: 100_000, maxCell: 1000 } as const;

/** One entry of a batch download. `packageUrl` is a signed, expiring URL of the evidence package (ZIP). */
export interface BatchItem {
  id: number;
  baoquan: string;
  title: string;
  packageUrl: string;
}
/** `batchUrl` is one signed URL of a ZIP holding every selected package. */
export interface BatchDownloadData {
  list: BatchItem[];
  batchUrl: string;
}

/** What the public verification pages show of an evidence (no owner data). */
export interface PublicEvidence {
  baoquan: string;
  title: string;
  kind: 'file' | 'hash' | 'property' | 'app';
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
  viewToken: z.string({ error: Msg.viewTokenInvalid }).trim().min(1, Msg.viewTokenInvalid).max(200),
  no: NoBody.shape.no,
});
/** bqno → `{viewToken}`: `<exp>.<hex HMAC>`, valid 10 minutes for that one number. */
export interface ViewTokenData {
  viewToken: string;
}
/** `POST {hash}` of byHash. */
export const ByHashBody = z.object({ hash: Sha256Hex });

/** Text fields of `POST /api/data/saveProperty` (title defaults to the uploaded file's name, else "用户数据"). */
export const SavePropertyFields = z.object({
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
/** `POST /api/Evidences/labelSave {dataId, label}` ('' clears the label). */
export const LabelSaveBody = z.object({
  dataId: z.coerce.number({ error: Msg.evidenceNotFound }).int().positive(Msg.evidenceNotFound),
  label: freeText('标签', 30),
});
/** `GET|POST /api/data/delData {dataId}`. */
export const DelDataBody = z.object({
  dataId: z.coerce.number({ error: Msg.evidenceNotFound }).int().positive(Msg.evidenceNotFound),
});
/** Most ids one downloadBatch call accepts. */
export const BATCH_MAX_ITEMS = 100;
/** labelSave → the evidence's id and its new label. */
export interface LabelSaveData {
  id: number;
  label: string;
}
/** delData → the evidence's id and the deletion date "YYYY-MM-DD" (Beijing). */
export interface DelDataData {
  id: number;
  deletedAt: string;
}

/**
 * `GET /api/file/<baoquan>/authorize?exp=&sig=&purpose=package` → this, when the package signature is valid and the
 * data is not deleted (else HTTP 403 with an envelope; HTTP 404 when a file's bytes are missing). Lets the gateway
 * check a package URL (or each item of a batch URL) without holding the key. `fileName` is the original's name
 * inside the package (`data.csv` for user data), null for hash evidence (no bytes held). `downUrl` is a fresh signed
 * URL of the original's bytes (null for hash evidence).
 */
export interface PackageAuthorization {
  baoquan: string;
  fileName: string | null;
  kind: 'file' | 'hash' | 'property' | 'app';
  title: string;
  downUrl: string | null;
}
