/**
 * /attestation/{attestationId}: the evidence custody certificate (spec 01 §2.3, §4, §6). Public: anyone with the
 * link reads it. The owner (isSelf 1, userStatus set) gets a download button and a mobile QR code; everyone else
 * an extraction-code form. Both end in a signed, expiring URL of the evidence package (ZIP: original, certificate
 * PDF, proof.json; what each kind's package holds is stated on the page, decision 028) that the browser follows as a
 * document (the file arrives as an attachment; the page stays).
 * Print: with JavaScript a confirmation and the browser's print, which prints the same sheet as the PDF (the
 * issuer block and foot of certificate-sheet.tsx are shown in print media, actions and forms hidden); without it
 * the link opens the signed PDF.
 * Query (spec 01 §2.3): `isDownload` (§4), and `fileUrl` (a file-URL token), `fileType` (文档, 图片, 音频, 视频) and
 * `vedioType` which preview the evidence's file on the page (file-preview.server.ts).
 */
import { Form, Link } from 'react-router';
import type { Route } from './+types/attestation';
import { type EvidenceView, EvidenceMsg, packageContents } from '../../contract/evidence-codes.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors } from '../shell/field.tsx';
import { attestationAction } from './attestation-action.server.ts';
import { CertificateBody, DeletedNotice, Hashes, KindFacts } from './certificate-parts.tsx';
import { readFilePreview } from './file-preview.server.ts';
import { FilePreviewBox } from './file-preview.tsx';
import { loadCertificate, ownerMobileQr } from './view.server.ts';
import { IssuerBlock, SheetFoot } from './certificate-sheet.tsx';
import { sheetFacts } from './certificate-sheet.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `电子数据保全证书 ${d.view.baoquan} - 存证云` : '电子数据保全证书 - 存证云' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { view, sth } = await loadCertificate(request, context, params.attestationId);
  const url = new URL(request.url);
  return {
    view,
    qr: view.isSelf === 1 ? await ownerMobileQr(request, context, view) : null,
    queryIsDownload: url.searchParams.get('isDownload'),
    preview: readFilePreview(url, view, context.sessionSecrets, context.site.storageHostRewrite),
    sheet: await sheetFacts(request, context, view, sth, false),
  };
}

export async function action(args: Route.ActionArgs) {
  return attestationAction(args);
}

/** The download state of spec 01 §4: 1 downloadable; 0 with query isDownload 2 uploading; 0 otherwise missing. */
export function downloadBlock(isDownload: number, queryIsDownload: string | null): string | null {
  if (isDownload === 1) return null;
  return queryIsDownload === '2' ? EvidenceMsg.evidenceUploading : EvidenceMsg.evidenceMissing;
}

/** How to check the hash below, by kind (decision 028: say what the package really holds). */
const VERIFY_HINT: Record<EvidenceView['kind'], string> = {
  file: '使用任意 SHA-256 工具计算原始文件的哈希值，与下方“文件SHA256”比对一致，即可证明文件自保全以来未被修改。',
  app: '使用任意 SHA-256 工具计算原始文件的哈希值，与下方“文件SHA256”比对一致，即可证明文件自保全以来未被修改。',
  music:
    '使用任意 SHA-256 工具计算证据包中音频文件的哈希值，与下方“文件SHA256”比对一致，即可证明作品文件自保全以来未被修改。',
  hash: '平台仅保存了用户提交的哈希值，证据包中没有原始文件。请使用任意 SHA-256 工具计算您持有的原始文件的哈希值，与下方“文件SHA256”一致即可证明文件未被修改。',
  property:
    '使用任意 SHA-256 工具计算证据包中 evidence/data.csv 的哈希值，与下方“数据SHA256”比对一致，即可证明数据自保全以来未被修改。',
  process:
    '使用任意 SHA-256 工具计算证据包中 evidence/ 目录下过程取证包（WACZ 文件，含录像）的哈希值，与下方“文件SHA256”比对一致，即可证明取证包自保全以来未被修改；取证包内 datapackage.json 列出其中每个文件的哈希值。',
  web: '使用任意 SHA-256 工具计算证据包中 evidence/ 目录下网页取证包（WACZ 文件）的哈希值，与下方“文件SHA256”比对一致，即可证明取证包自保全以来未被修改；取证包内 datapackage.json 列出其中每个文件的哈希值。',
};

/** Print with a confirmation when JavaScript runs; the plain link opens the PDF otherwise. */
function confirmPrint(event: React.MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  if (window.confirm('确认打印该证书？')) window.print();
}

export default function Attestation({ loaderData, actionData, matches }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { view, qr, queryIsDownload, preview, sheet } = loaderData;
  // matches[0] is the root route: its loader's data carries the logged-in user (or null).
  const user = matches[0].loaderData.user;
  const owner = view.isSelf === 1 && !!user?.userStatus;
  const blocked = view.kind === 'hash' ? null : downloadBlock(view.isDownload, queryIsDownload);
  const pdf = `/attestation/${encodeURIComponent(view.baoquan)}.pdf`;
  return (
    <section className="page certificate-page">
      <div className="print-only">
        <IssuerBlock view={view} english={false} facts={sheet} />
      </div>
      <nav className="certificate-actions no-print" aria-label="证书操作">
        <a href={appUrl(pdf)} onClick={confirmPrint} className="button">
          打印证书
        </a>
        <a href={appUrl(pdf)} className="button" download>
          下载PDF
        </a>
        <Link to={`/English/attestation/${encodeURIComponent(view.baoquan)}`} className="button">
          English
        </Link>
      </nav>
      <DeletedNotice view={view} />
      <CertificateBody view={view} />
      <FilePreviewBox preview={preview} />
      <KindFacts view={view} />
      <div className="no-print">
        <h2 className="section-title">核验信息</h2>
        <p className="muted">{VERIFY_HINT[view.kind]}</p>
        <Hashes view={view} />
      </div>
      <div className="print-only">
        <SheetFoot view={view} english={false} facts={sheet} />
      </div>
      <section className="download-box" aria-labelledby="download-title">
        <h2 id="download-title">下载证据</h2>
        {blocked ? (
          <p className="form-notice">{blocked}</p>
        ) : owner ? (
          <div className="owner-download">
            <Form method="post" reloadDocument>
              <CsrfInput />
              <input type="hidden" name="intent" value="owner" />
              <input type="hidden" name="dataId" value={view.id ?? ''} />
              <button type="submit" className="button primary">
                下载证据
              </button>
              <p className="muted" data-testid="package-contents">
                证据包（ZIP）内含{packageContents(view.kind)}。
              </p>
            </Form>
            {qr?.preview ? (
              <p>
                <Link to={qr.preview} data-testid="preview-link">
                  在线预览
                </Link>
              </p>
            ) : null}
            {qr ? (
              <figure className="qr">
                <img src={qr.img} alt="手机扫码查看证书" width={132} height={132} data-testid="mobile-qr" />
                <figcaption>
                  手机扫码查看（10分钟内有效）
                  <br />
                  <a href={qr.url} data-testid="mobile-link">
                    手机版链接
                  </a>
                </figcaption>
              </figure>
            ) : null}
          </div>
        ) : (
          <Form method="post" reloadDocument className="inline-form" noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="code" />
            <label htmlFor="code">提取码</label>
            <input
              id="code"
              name="code"
              type="text"
              maxLength={30}
              autoComplete="off"
              placeholder="请输入证据所有人提供的提取码"
            />
            <button type="submit" className="button primary">
              提取下载
            </button>
          </Form>
        )}
        {actionData && 'notice' in actionData ? (
          <p className="form-notice" role="status">
            {actionData.notice}
          </p>
        ) : null}
        <FormErrors errors={actionData && 'error' in actionData ? [actionData.error] : undefined} />
        {!user ? (
          <p className="muted">
            您是证据所有人？
            <Link to={`/login?redirect=${encodeURIComponent(`/attestation/${view.baoquan}`)}`}>登录</Link>
            后可直接下载。
          </p>
        ) : null}
      </section>
    </section>
  );
}
