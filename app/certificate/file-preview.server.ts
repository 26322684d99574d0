/**
 * The certificate page's file query (spec 01 §2.3: `fileUrl`, `fileType` 文档/图片/音频/视频, `vedioType`): which file
 * the page previews, and how. `fileUrl` is the file-URL token of spec 01 §2.3 (decision 008), never a bare URL, so a
 * link cannot make our certificate page show someone else's file; a token for another evidence's file is refused
 * too. Decision 028.
 */
import { type EvidenceView, type FileTypeCode, fileTypeFromQuery } from '../../contract/evidence.ts';
import { decodeFileToken, encodeFileToken, rewriteStorageHost } from './file-token.server.ts';

/** What the page shows for the file query: nothing, a refusal, or the file with its preview kind. */
export type FilePreview =
  | null
  | { ok: false; message: string }
  | {
      ok: true;
      /** The decoded (and host-rewritten) URL of the file. */
      url: string;
      /** 1 document (a link only), 2 image, 3 audio, 4 video, 5 other (a link only). */
      fileType: FileTypeCode;
      /** MIME type of a video's `<source>` ("video/mp4"), from `vedioType`; null lets the browser sniff. */
      videoMime: string | null;
    };

/** Shown when `fileUrl` is not a token we issued for this evidence (forged, altered, or another evidence's). */
export const PREVIEW_INVALID = '文件链接无效或已被篡改，无法预览该文件';

const VIDEO_TYPE_RE = /^(?:video\/)?([a-z0-9][a-z0-9.+-]{0,30})$/i;

/** `vedioType` ("mp4", "video/webm", "quicktime") as a video MIME type, or null when absent or malformed. */
export function videoMime(value: string | null): string | null {
  const m = VIDEO_TYPE_RE.exec((value ?? '').trim());
  return m ? `video/${m[1]!.toLowerCase()}` : null;
}

/**
 * Reads the file query of a certificate URL for `view`.
 * @param secrets the session secrets (the token's MAC keys, newest first)
 * @param storageHostRewrite STORAGE_HOST_REWRITE (the load context's `site.storageHostRewrite`; '' rewrites nothing)
 * @returns null without `fileUrl`; a refusal for a bad token; else the file to preview. Deleted or missing data
 *   previews nothing (the download block already says why).
 */
export function readFilePreview(
  url: URL,
  view: EvidenceView,
  secrets: string[],
  storageHostRewrite = '',
): FilePreview {
  const token = url.searchParams.get('fileUrl');
  if (!token) return null;
  if (view.deletedAt || view.isDownload !== 1) return null;
  const decoded = decodeFileToken(token, secrets);
  if (decoded === null || !forThisEvidence(decoded, view.baoquan))
    return { ok: false, message: PREVIEW_INVALID };
  const fileType = fileTypeFromQuery(url.searchParams.get('fileType')) ?? clampType(view.fileType);
  return {
    ok: true,
    url: rewriteStorageHost(decoded, storageHostRewrite),
    fileType,
    videoMime: fileType === 4 ? videoMime(url.searchParams.get('vedioType')) : null,
  };
}

/** Our own download URLs name their evidence (`/api/file/<baoquan>?…`); one of another evidence is refused. */
function forThisEvidence(decoded: string, baoquan: string): boolean {
  const path = /^\/api\/file\/([^/?#]+)/.exec(decoded.replace(/^https?:\/\/[^/]+/i, ''));
  return !path || decodeURIComponent(path[1]!) === baoquan;
}

function clampType(code: number): FileTypeCode {
  return code >= 1 && code <= 5 ? (code as FileTypeCode) : 5;
}

/** Video containers browsers play, by file extension, as `vedioType` values. */
const VIDEO_TYPES: Record<string, string> = {
  mp4: 'mp4',
  m4v: 'mp4',
  webm: 'webm',
  ogv: 'ogg',
  mov: 'quicktime',
};

/**
 * The owner's preview link of an image, audio or video evidence: this certificate page with `fileUrl` (a token of
 * the fresh signed `downUrl`), `fileType` by its Chinese name and, for a video, `vedioType`. Null for other types.
 */
export function previewHref(view: EvidenceView, downUrl: string, secret: string): string | null {
  const names: Record<number, string> = { 2: '图片', 3: '音频', 4: '视频' };
  const name = names[view.fileType];
  if (!name || !downUrl) return null;
  const q = new URLSearchParams({ fileUrl: encodeFileToken(downUrl, secret), fileType: name });
  const ext = /\.([a-z0-9]+)$/i.exec(view.fileName)?.[1]?.toLowerCase() ?? '';
  if (view.fileType === 4 && VIDEO_TYPES[ext]) q.set('vedioType', VIDEO_TYPES[ext]);
  return `/attestation/${encodeURIComponent(view.baoquan)}?${q}`;
}
