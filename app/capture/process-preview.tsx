/**
 * /evidences-all/process/preview?baoquan=: the owner watches a process capture's recording (spec 01 §2 routes;
 * decision 039). The video is read from the preserved WACZ by the platform behind a signed URL valid for ten minutes
 * (a <video> element cannot send the session's token); the page also offers it as a plain link, for browsers that
 * cannot play WebM. Not the owner's, or no video: 404.
 */
import { data, Link } from 'react-router';
import type { Route } from './+types/process-preview';
import { isSuccess } from '../../contract/envelope.ts';
import { CapturePaths, type CaptureVideoData } from '../../contract/capture-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '取证录像 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const baoquan = (new URL(request.url).searchParams.get('baoquan') ?? '').trim().slice(0, 64);
  if (!baoquan) throw data('取证录像不存在', { status: 404 });
  const res = await authedCall<CaptureVideoData>(request, context, CapturePaths.videoUrl, {
    query: { baoquan },
  });
  if (!isSuccess(res.code)) throw data(res.msg || '取证录像不存在', { status: 404 });
  return { baoquan, url: res.data.url };
}

export default function ProcessPreview({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { baoquan, url } = loaderData;
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/evidences-all/process">过程取证</Link> / 取证录像
      </p>
      <h1>取证录像</h1>
      <video
        src={appUrl(url)}
        controls
        preload="metadata"
        className="preview-media"
        data-testid="process-video"
      >
        <a href={appUrl(url)}>下载取证录像（WebM）</a>
      </video>
      <p>
        <a href={appUrl(url)} download="process.webm">
          下载录像（WebM，10 分钟内有效）
        </a>
      </p>
      <p>
        <Link to={`/attestation/${encodeURIComponent(baoquan)}`}>查看证书 {baoquan}</Link>
      </p>
    </section>
  );
}
