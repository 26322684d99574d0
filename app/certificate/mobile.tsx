/**
 * Mobile views (spec 01 §2.1, §2.3): /mobile/attestation/{id}/{token} opened from the owner's QR code, and the
 * preview routes /mobile/preview/{fileUrl}/{type?}/{baoquan?}, /mobile/previewDoc/{fileUrl}/{type},
 * /mobile/previewProgress/{fileUrl}, where {token}/{fileUrl} is the file-URL token of spec 01 §2.3. A forged or
 * altered token shows a clear message instead of the file, with HTTP 403 (the certificate's public facts, when the
 * route names an evidence, are still shown).
 */
import { data, Link } from 'react-router';
import type { Route } from './+types/mobile';
import { fileTypeLabel } from '../../contract/evidence-codes.ts';
import { DeletedNotice, Hashes, KindFacts } from './certificate-parts.tsx';
import { decodeFileToken, rewriteStorageHost } from './file-token.server.ts';
import { loadView } from './view.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [
  { title: '证书查看 - 存证云' },
  { name: 'robots', content: 'noindex' },
];

const TYPE_BY_NAME: Record<string, number> = { 文档: 1, 图片: 2, 音频: 3, 视频: 4 };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const token = params.token ?? params.fileUrl ?? '';
  const decoded = decodeFileToken(token, context.sessionSecrets);
  const fileUrl = decoded ? rewriteStorageHost(decoded, context.site.storageHostRewrite) : null;
  const baoquan = params.attestationId ?? params.baoquan;
  const view = baoquan ? await loadView(request, context, baoquan) : null;
  const typeParam = params.type ?? new URL(request.url).searchParams.get('fileType') ?? '';
  const numeric = Number(typeParam);
  const fileType =
    view?.fileType ??
    TYPE_BY_NAME[decodeURIComponent(typeParam)] ??
    (numeric >= 1 && numeric <= 5 ? numeric : 5);
  const tokenValid = decoded !== null;
  return data({ view, fileUrl, tokenValid, fileType }, tokenValid ? undefined : { status: 403 });
}

function Preview({ url, fileType }: { url: string; fileType: number }) {
  const appUrl = useAppUrl();
  if (fileType === 2) return <img src={appUrl(url)} alt="证据预览" className="preview-media" />;
  if (fileType === 3) return <audio src={appUrl(url)} controls className="preview-media" />;
  if (fileType === 4) return <video src={appUrl(url)} controls className="preview-media" />;
  return null;
}

export default function MobileView({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { view, fileUrl, tokenValid, fileType } = loaderData;
  return (
    <section className="page mobile-page">
      {view ? (
        <>
          <h1>电子数据保全证书</h1>
          <p className="mono">保全编号：{view.baoquan}</p>
          <dl className="facts">
            <dt>证据名称</dt>
            <dd>{view.title}</dd>
            <dt>文件类型</dt>
            <dd>{fileTypeLabel(view.fileType)}</dd>
            <dt>保全时间</dt>
            <dd>{view.saveTime}</dd>
          </dl>
          <DeletedNotice view={view} />
          <KindFacts view={view} />
          <Hashes view={view} />
        </>
      ) : null}
      {tokenValid && fileUrl ? (
        <div className="mobile-file">
          <Preview url={fileUrl} fileType={fileType} />
          <p>
            <a href={appUrl(fileUrl)} className="button primary" download>
              下载原文件
            </a>
          </p>
          <p className="muted">链接有效期有限，过期后请重新扫码或凭提取码下载。</p>
        </div>
      ) : (
        <p className="form-error" role="alert">
          二维码无效或已被篡改，无法下载文件。
        </p>
      )}
      {view ? (
        <p>
          <Link to={`/attestation/${encodeURIComponent(view.baoquan)}`}>查看完整证书</Link>
        </p>
      ) : null}
    </section>
  );
}
