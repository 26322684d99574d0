/**
 * Loading an evidence view for the certificate pages (spec 01 §2.3): with the session's token when there is one
 * (so the owner is recognised), falling back to an anonymous read when that token has expired (a public
 * certificate must never be hidden by a stale session). The platform's certificate HTML is sanitized here.
 */
import { data, type AppLoadContext } from 'react-router';
import { qrDataUri } from '../lib/qr.server.ts';
import { isSessionExpired, isSuccess } from '../../contract/envelope.ts';
import { type DownloadData, EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import type { SignedTreeHead } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';
import { getToken } from '../lib/auth.server.ts';
import { sanitizeCertificateHtml } from '../lib/sanitize.server.ts';
import { previewHref } from './file-preview.server.ts';
import { encodeFileToken } from './file-token.server.ts';
import { siteUrl } from '../lib/base-path.ts';

/** Reads the view of `baoquan`. @throws 404 for an unknown number, 502 when the platform fails. */
export async function loadView(
  request: Request,
  context: AppLoadContext,
  baoquan: string,
): Promise<EvidenceView> {
  return (await loadCertificate(request, context, baoquan, false)).view;
}

/**
 * The view of `baoquan` and, with `withSth`, the ledger's signed tree head in the same call (`getView?sth=1`), for
 * the certificate sheet's proof summary; the head is taken out of the view (it is not page data).
 * @throws 404 for an unknown number, 502 when the platform fails
 */
export async function loadCertificate(
  request: Request,
  context: AppLoadContext,
  baoquan: string,
  withSth = true,
): Promise<{ view: EvidenceView; sth: SignedTreeHead | null }> {
  const token = await getToken(request, context);
  const urlPath = new URL(request.url).pathname;
  const query = withSth ? { baoquan, sth: '1' } : { baoquan };
  let res = await apiCall<EvidenceView>(context, EvidencePaths.view, {
    query,
    token: token ?? undefined,
    urlPath,
  });
  if (token && isSessionExpired(res.code, urlPath)) {
    res = await apiCall<EvidenceView>(context, EvidencePaths.view, { query, urlPath });
  }
  if (Number(res.code) === 404) throw data({ message: res.msg }, { status: 404 });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const { sth, ...view } = res.data;
  return { view: { ...view, html: sanitizeCertificateHtml(view.html) }, sth: sth ?? null };
}

/**
 * The owner's mobile QR code (spec 01 §2.3, §6): content is the mobile certificate URL carrying the file URL token
 * (a fresh signed download URL of the owner's evidence); with it `preview`, this page's own preview link of an
 * image, audio or video (`?fileUrl=&fileType=&vedioType=`, decision 028) or null. Null when the platform gives no
 * download URL.
 */
export async function ownerMobileQr(
  request: Request,
  context: AppLoadContext,
  view: EvidenceView,
): Promise<{ img: string; url: string; preview: string | null } | null> {
  const token = await getToken(request, context);
  if (!token || view.id === null || view.isDownload !== 1) return null;
  const res = await apiCall<DownloadData>(context, EvidencePaths.ownerDownload, {
    body: { dataId: view.id },
    token,
    urlPath: new URL(request.url).pathname,
  });
  if (!isSuccess(res.code)) return null;
  const url = `${siteUrl(request, context, '/mobile/attestation/')}${encodeURIComponent(view.baoquan)}/${encodeFileToken(res.data.downUrl, context.sessionSecrets[0]!)}`;
  return {
    img: await qrDataUri(url),
    url,
    preview: previewHref(view, res.data.downUrl, context.sessionSecrets[0]!),
  };
}
