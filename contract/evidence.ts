/**
 * The evidence area's contract (spec 01 §2.1–2.4, §3, §4, §7, §9): saving files, hashes and user data, the lists and
 * their labels, deletion, the certificate view, the owner's and the extraction-code downloads, batch download.
 * Type codes: 0 all, 1 document, 2 image, 3 audio, 4 video, 5 other (spec 01 §2.4, §9).
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { freeText } from './validators.ts';
import { BATCH_MAX_ITEMS, EVIDENCE_PAGE_SIZE, EvidenceMsg } from './evidence-codes.ts';

export * from './evidence-codes.ts';

/** Text fields of the multipart `POST /api/data/save` (the `file` part carries the bytes). */
export const SaveEvidenceFields = z.object({
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
export type SaveEvidenceFields = z.infer<typeof SaveEvidenceFields>;

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

/** `POST /api/data/downBaoquan {dataId}` (owner). */
export const OwnerDownloadBody = z.object({ dataId: z.coerce.number().int().positive() });
/** `POST /api/check/checkNo {code, baoquan}` (anyone with the owner's extraction code). */
export const CodeDownloadBody = z.object({
  code: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string({ error: EvidenceMsg.extractCodeRequired }).trim().max(30, Msg.tooLong('提取码', 30)),
  ),
  baoquan: z.string().trim().min(1).max(64),
});

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

/**
 * Messages of the evidence area beyond the shared `Msg` (which still holds the evidence messages written before the
 * contract was split by area). Our wording: the spec shows none.
 */
/** Text fields of `POST /api/data/saveProperty` (title defaults to the uploaded file's name, else "用户数据"). */
export const SavePropertyFields = z.object({
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
/** `POST /api/Evidences/labelSave {dataId, label}` ('' clears the label). */
export const LabelSaveBody = z.object({
  dataId: z.coerce
    .number({ error: EvidenceMsg.evidenceNotFound })
    .int()
    .positive(EvidenceMsg.evidenceNotFound),
  label: freeText('标签', 30),
});
/** `GET|POST /api/data/delData {dataId}`. */
export const DelDataBody = z.object({
  dataId: z.coerce
    .number({ error: EvidenceMsg.evidenceNotFound })
    .int()
    .positive(EvidenceMsg.evidenceNotFound),
});
/** `POST /api/data/downloadBatch {dataIdStr}`: a comma list of ids (an array is joined); at most 100 ids' worth. */
export const BatchDownloadBody = z.object({
  dataIdStr: z.preprocess(
    (v) => (Array.isArray(v) ? v.join(',') : v == null ? '' : String(v)),
    z.string().max(BATCH_MAX_ITEMS * 24, EvidenceMsg.batchTooMany(BATCH_MAX_ITEMS)),
  ),
});
/**
 * `GET /api/share/getView?baoquan=[&sth=1]`: with `sth=1` the view carries the ledger's current signed tree head
 * (EvidenceView.sth), so that a certificate page needs no second call for its proof summary (decision 032).
 */
export const EvidenceViewQuery = z.object({
  baoquan: z.string().trim().min(1).max(64),
  sth: z.literal('1').optional(),
});
/** `GET /api/data/getLabelList?v=`: `property` or `file` narrows the kinds, anything else lists all but hash. */
export const EvidenceLabelsQuery = z.object({ v: z.string().optional() });
/** The `:baoquan` of `GET /api/file/:baoquan` and its `/authorize`. */
export const EvidenceFileParams = z.object({ baoquan: z.string().min(1).max(64) });
/** `?exp=&sig=` of a signed download URL (checked by the platform, so only their presence is parsed here). */
export const SignedUrlQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });
/** `GET /api/file/:baoquan/authorize?exp=&sig=&purpose=package` (the gateway, before it streams a package). */
export const PackageAuthorizeQuery = SignedUrlQuery.extend({ purpose: z.string().optional() });
