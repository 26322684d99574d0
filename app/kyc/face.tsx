/**
 * /personage-face-kyc?certify_id=… (spec 02 "Face KYC screen", §4 face flow): the QR code of the certification (a
 * server-rendered SVG, plus a plain link for testers on a desktop), the request to keep the page open, and the live
 * state. The gateway polls the result on the server every 3 s whether or not this page is open; the page only shows
 * what `aliQuery` says: still open (refreshes itself every 3 s: a `<noscript>` meta refresh without JavaScript,
 * revalidation with it), passed (实名认证成功 and 我已完成认证 → /person-info), or failed/expired (400: stop).
 * The QR content arrives in the signed query the face-start action redirected to (kyc.server.ts faceUrl).
 */
import { useEffect } from 'react';
import { Link, redirect, useRevalidator } from 'react-router';
import type { Route } from './+types/face';
import { isSuccess } from '../../contract/envelope.ts';
import { AliQueryBody, FACE_PENDING_CODE, KycPaths } from '../../contract/kyc.ts';
import { authedCall } from '../lib/auth.server.ts';
import { KycText } from './kyc-text.ts';
import { verifiedFaceQr } from './kyc.server.ts';
import { qrDataUri } from '../lib/qr.server.ts';
import { siteUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '支付宝人脸认证 - 存证云' }];

/** Poll interval of spec 02 §4/§9 (3 seconds). */
const POLL_SECONDS = 3;

type FaceState = 'open' | 'passed' | 'failed';

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = AliQueryBody.safeParse({ certify_id: url.searchParams.get('certify_id') ?? '' });
  if (!parsed.success) throw redirect('/personage-kyc?method=face');
  const certifyId = parsed.data.certify_id;
  const res = await authedCall<unknown>(request, context, KycPaths.aliQuery, {
    body: { certify_id: certifyId },
  });
  const code = Number(res.code);
  const state: FaceState = isSuccess(code) ? 'passed' : code === FACE_PENDING_CODE ? 'open' : 'failed';
  const signed = verifiedFaceQr(context, url.searchParams);
  // A platform that rebuilds the QR content on each query (its URL carries a timestamp) wins over the signed query.
  const fresh = (res.data as { qrContent?: unknown } | null)?.qrContent;
  const content = typeof fresh === 'string' && fresh ? fresh : signed?.qr;
  let qr: { url: string; img: string } | null = null;
  if (state === 'open' && content) {
    // The platform may answer a same-origin path: a phone scanning the code needs the absolute URL.
    const absolute = siteUrl(request, context, content);
    qr = { url: absolute, img: await qrDataUri(absolute) };
  }
  return {
    state,
    message: state === 'failed' ? res.msg : '',
    qr,
    expiresAt: signed?.expiresAt ?? 0,
  };
}

/** HH:mm in Beijing time. */
function clock(unixSeconds: number): string {
  return new Date(unixSeconds * 1000 + 8 * 3600_000).toISOString().slice(11, 16);
}

export default function FaceKyc({ loaderData }: Route.ComponentProps) {
  const { state, message, qr, expiresAt } = loaderData;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (state !== 'open') return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, POLL_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [state, revalidator]);
  return (
    <section className="page narrow kyc-page face-page">
      <p className="breadcrumb">
        <Link to="/personage-kyc?method=face">个人实名认证</Link> / 支付宝人脸认证
      </p>
      <h1>支付宝人脸认证</h1>
      {state === 'open' ? (
        <>
          <noscript>
            <meta httpEquiv="refresh" content={String(POLL_SECONDS)} />
          </noscript>
          <p className="lead">{KycText.faceKeepOpen}</p>
          {qr ? (
            <div className="face-qr">
              <img src={qr.img} alt="支付宝人脸认证二维码" width={220} height={220} />
              <p>
                <a href={qr.url} target="_blank" rel="noreferrer" data-testid="face-link">
                  在浏览器中打开认证页面
                </a>
              </p>
              {expiresAt ? <p className="muted">二维码有效期至 {clock(expiresAt)}（北京时间）</p> : null}
            </div>
          ) : (
            <p className="form-error">二维码已失效，请返回重新发起认证。</p>
          )}
          <p className="kyc-banner kyc-banner-info" role="status" aria-live="polite" data-testid="face-state">
            {KycText.faceWaiting}（每{POLL_SECONDS}秒自动刷新）
          </p>
        </>
      ) : null}
      {state === 'passed' ? (
        <div className="kyc-banner kyc-banner-success" role="status" data-testid="face-state">
          <p className="kyc-banner-title">{KycText.faceDone}</p>
          <p>
            <Link to="/person-info" className="button primary">
              我已完成认证
            </Link>
          </p>
        </div>
      ) : null}
      {state === 'failed' ? (
        <div className="kyc-banner kyc-banner-error" role="alert" data-testid="face-state">
          <p className="kyc-banner-title">{message || '人脸认证未通过'}</p>
          <p>
            <Link to="/personage-kyc?method=face" className="button">
              重新认证
            </Link>
          </p>
        </div>
      ) : null}
    </section>
  );
}
