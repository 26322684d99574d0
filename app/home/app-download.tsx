/**
 * /appDownload (spec 01 §2.1): the app versions the platform offers (`POST /api/home/getAppVersion`, configured by
 * APP_VERSIONS; decision 027), each with its download link; the empty state 暂无可下载的应用 when none is configured.
 * Plain links: works without JavaScript.
 */
import type { Route } from './+types/app-download';
import { HomeMsg } from '../../contract/home-codes.ts';
import { formatSize } from '../shell/format-size.ts';
import { loadAppVersions } from './home-content.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  return { versions: await loadAppVersions(context, new URL(request.url).pathname) };
}

export const meta: Route.MetaFunction = () => [{ title: '应用下载 - 存证云' }];

export default function AppDownload({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { versions } = loaderData;
  return (
    <section className="page narrow">
      <h1>应用下载</h1>
      {versions.length === 0 ? (
        <p className="empty" role="status">
          {HomeMsg.noApps}
        </p>
      ) : (
        <div>
          {versions.map((v) => (
            <div key={`${v.platform}-${v.name}-${v.version}`} className="card">
              <h2>{`${v.name}（${v.platform}）`}</h2>
              <dl className="facts">
                <dt>版本</dt>
                <dd>{v.version}</dd>
                {v.releasedAt ? (
                  <>
                    <dt>发布日期</dt>
                    <dd>{v.releasedAt}</dd>
                  </>
                ) : null}
                {v.size !== undefined ? (
                  <>
                    <dt>大小</dt>
                    <dd>{formatSize(v.size)}</dd>
                  </>
                ) : null}
              </dl>
              {v.notes ? <p className="muted">{v.notes}</p> : null}
              <p>
                <a href={appUrl(v.url)} className="button primary" rel="noopener noreferrer">
                  {`下载 ${v.platform} 版`}
                </a>
              </p>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
