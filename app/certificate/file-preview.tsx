/**
 * The file preview of the certificate page (spec 01 §2.3 query `fileUrl`, `fileType`, `vedioType`; decision 028):
 * an image, audio or video element for those types, a link to the file for documents and other files, or the
 * refusal of a bad token. Plain HTML, no script needed.
 */
import type { FilePreview } from './file-preview.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export function FilePreviewBox({ preview }: { preview: FilePreview }) {
  const appUrl = useAppUrl();
  if (!preview) return null;
  if (!preview.ok) {
    return (
      <p className="form-error" role="alert" data-testid="file-preview-invalid">
        {preview.message}
      </p>
    );
  }
  const { url, fileType, videoMime } = preview;
  return (
    <section className="file-preview" aria-labelledby="file-preview-title" data-testid="file-preview">
      <h2 id="file-preview-title" className="section-title">
        文件预览
      </h2>
      {fileType === 2 ? <img src={appUrl(url)} alt="证据文件预览" className="preview-media" /> : null}
      {fileType === 3 ? (
        <audio src={appUrl(url)} controls preload="metadata" className="preview-media" />
      ) : null}
      {fileType === 4 ? (
        <video controls preload="metadata" className="preview-media">
          <source src={appUrl(url)} type={videoMime ?? undefined} />
        </video>
      ) : null}
      <p>
        <a href={appUrl(url)} download>
          {fileType === 1 || fileType === 5 ? '打开原文件' : '下载该文件'}
        </a>
      </p>
    </section>
  );
}
