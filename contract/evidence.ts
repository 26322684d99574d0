/**
 * Evidence kinds and type codes (spec 01 §2.4, §9): 0 all, 1 document, 2 image, 3 audio, 4 video, 5 other.
 */
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

/** Page size of the evidence lists (spec 01 §9). */
export const EVIDENCE_PAGE_SIZE = 20;
/** Seconds added to a chosen end date to reach the end of that day (spec 01 §9: start + 86400 − 1). */
export const END_OF_DAY_SECONDS = 86400 - 1;
/** Default upload limit in bytes (2 GiB); MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
