/**
 * The evidence area's contract without zod (spec 01 §2.1–2.4, §3, §4, §7, §9): paths, messages, type codes and
 * labels, limits and the answer types. Pages that only show evidence import this module, so they load no schema
 * code; contract/evidence.ts re-exports it with the request schemas. No I/O.
 */
import type { SignedTreeHead } from './ledger.ts';

/** Messages of the evidence area: the spec's (spec 01 §8) verbatim, ours where it shows none. */
export const EvidenceMsg = {
  certificateGenerating: '证书生成中',
  evidenceUploading: '证据上传中请稍后下载',
  evidenceMissing: '证据缺失不可下载',
  selectEvidenceToDownload: '请选择需要下载的证据',
  noDownloadFiles: '无下载文件',
  fileRequired: '请选择需要保全的文件',
  /** A save succeeded (spec 01 §8). */
  preserved: '保全成功',
  evidenceNotFound: '证据不存在',
  extractCodeWrong: '提取码错误',
  extractCodeRequired: '请输入提取码',
  downloadLinkInvalid: '下载链接无效或已过期',
  evidenceDeleted: '该证据数据已由所有人删除，不可下载',
  evidenceDataDeleted: '已删除该证据数据，保全记录仍保留在账本中',
  batchTooMany: (max: number) => `一次最多下载${max}个证据`,
  propertyDataRequired: '请上传CSV或XLSX文件，或填写字段名称和数据',
  propertyBadFileType: '仅支持CSV或XLSX格式的文件',
  propertyXlsUnsupported: '不支持旧版Excel（.xls）文件，请另存为.xlsx或CSV后上传',
  propertyBadEncoding: '无法识别文件编码，请使用UTF-8或GBK编码的CSV文件',
  propertyBadXlsx: 'XLSX文件无法读取，请检查文件是否损坏',
  propertyBadCsv: (line: number) => `CSV格式有误（第${line}行），含逗号、引号或换行的内容请用英文双引号括起`,
  propertyBadJson: '字段或数据格式有误',
  propertyNoFields: '请填写字段名称',
  propertyNoRows: '请至少填写一条数据',
  propertyFieldNameEmpty: (col: number) => `第${col}列的字段名称不能为空`,
  propertyFieldDuplicate: (name: string) => `字段名称“${name}”重复`,
  propertyTooManyFields: (max: number) => `字段不能超过${max}个`,
  propertyTooManyRows: (max: number) => `数据不能超过${max}条`,
  propertyCellTooLong: (row: number, col: number, max: number) =>
    `第${row}行第${col}列的内容不能超过${max}个字符`,
  propertyRagged: (row: number, got: number, want: number) => `第${row}行有${got}项，与字段数${want}不一致`,
  /** Title of user data saved without a title and without an uploaded file's name. */
  propertyDefaultTitle: '用户数据',
  /** Notification written when an evidence is saved (spec 01 §3 News). */
  savedNews: (title: string, baoquan: string) => `您的证据「${title}」已保全成功，保全号：${baoquan}`,
} as const;

export const FILE_TYPES = [
  { code: 0, label: '全部' },
  { code: 1, label: '文档' },
  { code: 2, label: '图片' },
  { code: 3, label: '音频' },
  { code: 4, label: '视频' },
  { code: 5, label: '其他' },
] as const;
export type FileTypeCode = 1 | 2 | 3 | 4 | 5;

/** Chinese label of a stored type code 1–5 (spec 01 §9). */
export function fileTypeLabel(code: number): string {
  return FILE_TYPES.find((t) => t.code === code)?.label ?? '其他';
}

/** English label of a stored type code 1–5 (the English pages, spec 01 §2.3); unknown codes read as "Other". */
export function fileTypeLabelEn(code: number): string {
  return ['All', 'Document', 'Image', 'Audio', 'Video', 'Other'][code] ?? 'Other';
}

/**
 * The type code of the certificate page's `fileType` query (spec 01 §2.3: 文档, 图片, 音频, 视频; the digits 1–5 are
 * accepted too), or null for anything else.
 */
export function fileTypeFromQuery(value: string | null): FileTypeCode | null {
  if (!value) return null;
  const byName = FILE_TYPES.find((t) => t.code > 0 && t.label === value.trim());
  if (byName) return byName.code as FileTypeCode;
  return /^[1-5]$/.test(value.trim()) ? (Number(value.trim()) as FileTypeCode) : null;
}

/**
 * The kinds of evidence (spec 01 §1, §3; decision 006): uploaded file, submitted hash only, user data rows, app
 * capture, web capture and process capture (the WACZ of a capture job; decision 037), music works (decision 039).
 */
export type EvidenceKindName = 'file' | 'hash' | 'property' | 'app' | 'web' | 'process' | 'music';

/** The `v` of getList that lists what the batch download screen offers: file, app and user-data evidence. */
export const BATCH_LIST_V = 'download';

/**
 * What an evidence's package ZIP holds, by kind (decision 007, 028): file and app evidence their original under
 * `evidence/`, user data its normalised `evidence/data.csv`, hash evidence no evidence file at all (the platform
 * never received it); every package holds `certificate.pdf` and `proof.json`. Chinese, or English with `en`.
 */
export function packageContents(kind: EvidenceKindName, en = false): string {
  if (kind === 'hash') {
    return en
      ? 'certificate.pdf and the ledger proof proof.json only; no original file (the platform only received its hash)'
      : '保全证书 certificate.pdf 和账本证明 proof.json；不含原始文件（平台只收到了哈希值）';
  }
  if (kind === 'property') {
    return en
      ? 'the user data as evidence/data.csv (the exact bytes hashed), certificate.pdf and the ledger proof proof.json'
      : '用户数据 evidence/data.csv（即计算哈希的数据本身）、保全证书 certificate.pdf 和账本证明 proof.json';
  }
  if (kind === 'web' || kind === 'process') {
    return en
      ? 'the web capture as a WACZ under evidence/ (WARC, screenshots, PDFs, DOM), certificate.pdf and proof.json'
      : '网页取证包 WACZ（evidence/ 目录下，含 WARC、截图、PDF 和网页源码）、保全证书 certificate.pdf 和账本证明 proof.json';
  }
  return en
    ? 'the original file under evidence/, certificate.pdf and the ledger proof proof.json'
    : '原始文件（evidence/ 目录下）、保全证书 certificate.pdf 和账本证明 proof.json';
}

/** Page size of the evidence lists (spec 01 §9). */
export const EVIDENCE_PAGE_SIZE = 20;
/** Seconds added to a chosen end date to reach the end of that day (spec 01 §9: start + 86400 − 1). */
export const END_OF_DAY_SECONDS = 86400 - 1;
/** Default upload limit in bytes (2 GiB); MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export const EvidencePaths = {
  save: '/api/data/save',
  list: '/api/data/getList',
  labels: '/api/data/getLabelList',
  view: '/api/share/getView',
  ownerDownload: '/api/data/downBaoquan',
  codeDownload: '/api/check/checkNo',
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
  /**
   * `POST ShareDownloadBody {baoquan, code?}` → DownloadData: the certificate (share) page's package download, by the
   * logged-in owner without a code, by anyone else with the owner's extraction code (spec 01 §2.3, §6; decision 027).
   */
  shareDownload: '/api/share/downBaoquan',
  /** `POST MobileInfoBody {baoquan}` → MobilePreviewInfo: what the mobile preview pages show (public; decision 027). */
  mobileInfo: '/api/share/getMpsInfo',
  /** `POST OwnerCertificateBody {dataId}` → CertificateDownloadData of one's own evidence (decision 027). */
  ownerCertificate: '/api/data/downContract',
} as const;

/** `POST /api/data/save` → result. `filehash` is the SHA-256 of the bytes, `chainhash` the ledger entry hash. */
export interface SaveEvidenceData {
  id: number;
  baoquan: string;
  filehash: string;
  chainhash: string;
}

/** One row of the evidence list (spec 01 §3). saveTime is "YYYY-MM-DD HH:mm:ss" in Beijing time. */
export interface EvidenceListItem {
  id: number;
  baoquan: string;
  title: string;
  fileType: number;
  label: string;
  saveTime: string;
  /** file | hash | property | app (decision 006; added by the platform, optional for older fixtures). */
  kind?: EvidenceKindName;
  /** "YYYY-MM-DD" (Beijing) when the owner deleted the stored data, else null (spec 01 §2.4 deletion). */
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
  /** file | hash | property | app (decision 006). */
  kind: EvidenceKindName;
  /** "YYYY-MM-DD" (Beijing) when the owner deleted the stored data; the ledger entry stays (decision 006). */
  deletedAt: string | null;
  /** Position of the evidence in the ledger (decision 005). */
  leafIndex: number;
  /**
   * A web or process capture's screenshots (how many: `/api/capture/shot/<baoquan>/<1..shots>`) and whether it holds
   * a video; null for other kinds or once the data was deleted (decision 039).
   */
  capture?: { shots: number; video: boolean } | null;
  /**
   * Only when asked with `sth=1`: the ledger's signed tree head as committed now, which covers `leafIndex` (decision
   * 005). The certificate sheet prints its size, root, time and key beside `leafIndex`.
   */
  sth?: SignedTreeHead;
}

/**
 * Both download calls → `{ downUrl, packageUrl }`: signed, expiring same-origin URLs. `downUrl` streams the original
 * bytes; `packageUrl` (`/attestation/<baoquan>/package.zip?exp=&sig=`, served by the gateway) the evidence package:
 * original (or data.csv), certificate.pdf and proof.json (decision 007).
 */
export interface DownloadData {
  downUrl: string;
  packageUrl: string;
}

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
  kind: EvidenceKindName;
  title: string;
  downUrl: string | null;
}

/**
 * The path of screenshot `n` (1-based) of capture evidence `baoquan` (contract/capture.ts `CapturePaths.shot`; here,
 * without zod, for the certificate page's bundle).
 */
export function captureShotPath(baoquan: string, n: number): string {
  return `/api/capture/shot/${encodeURIComponent(baoquan)}/${n}`;
}
