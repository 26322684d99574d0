/**
 * /newMobile: how an enterprise's app or business system connects to the open API (decision 039; spec 01 §2
 * routes), and the state of the signed-in user's credentials: not a verified enterprise (a link to enterprise
 * verification), a SecurityKey issued before the open API (a link to rotate it on the verification page), or ready
 * (AppID and the masked key). The signing rule is spelled out and the OpenAPI 3.1 document linked.
 */
import { Link } from 'react-router';
import type { Route } from './+types/new-mobile';
import { isSuccess } from '../../contract/envelope.ts';
import {
  OPEN_API_DOCUMENT_PATH,
  OPEN_API_MAX_SKEW_SECONDS,
  OpenApiHeaders,
  OpenApiPaths,
  type OpenApiState,
} from '../../contract/open-api-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { CaptureTabs } from './capture-tabs.tsx';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '接入 App 取证 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const res = await authedCall<OpenApiState>(request, context, OpenApiPaths.state);
  return { state: isSuccess(res.code) ? res.data : null, error: isSuccess(res.code) ? null : res.msg };
}

/** The credentials' state as the page shows it. */
function Credentials({ state }: { state: OpenApiState }) {
  if (!state.enterprise) {
    return (
      <p className="form-notice" data-testid="open-api-state" data-state="not-enterprise">
        开放接口仅向已认证的企业用户开放。<Link to="/organization-kyc">去企业认证</Link>
      </p>
    );
  }
  return (
    <>
      <dl className="facts">
        <dt>AppID</dt>
        <dd className="mono">{state.appId}</dd>
        <dt>SecurityKey</dt>
        <dd className="mono">{state.securityKeyMasked || '尚未生成'}</dd>
      </dl>
      {state.signingReady ? (
        <p className="form-notice" data-testid="open-api-state" data-state="ready">
          凭证可用，可以签名调用开放接口。完整的 SecurityKey 只在生成时显示一次，如已遗失请在
          <Link to="/kyc-info">认证信息</Link>页重新生成。
        </p>
      ) : (
        <p className="form-error" data-testid="open-api-state" data-state="rotate">
          当前 SecurityKey 不能用于签名调用：请在<Link to="/kyc-info">认证信息</Link>页重新生成 SecurityKey
          并保存新密钥。
        </p>
      )}
    </>
  );
}

export default function NewMobile({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { state, error } = loaderData;
  const h = OpenApiHeaders;
  return (
    <section className="page narrow">
      <h1>在线取证</h1>
      <CaptureTabs current="mobile" />
      <h2>接入 App 取证</h2>
      <p>
        贵单位的 App
        或业务系统可通过存证云开放接口，把拍摄的照片、录像、录音和文件（或仅文件的哈希值）直接保全，
        并附带设备名称、型号、系统版本、处理器和内核版本。保全后记录出现在
        <Link to="/evidences-all/mobile-process">App 取证</Link>
        列表，与网页上传的证据一样出具证书、可下载证据包和公开核验。
      </p>
      <h2>我的接口凭证</h2>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : state ? (
        <Credentials state={state} />
      ) : null}
      <h2>调用方法</h2>
      <ol>
        <li>
          每次请求生成一个不重复的 nonce（16–64 位字母、数字、下划线或连字符）并取当前 Unix 时间（秒）。
        </li>
        <li>
          将以下五项以换行符连接成签名串：HTTP 方法（大写）、自 <code>/api/</code>{' '}
          起的路径和原样查询串、时间戳、nonce、 请求体的 SHA-256（小写十六进制；无请求体时为空内容的哈希）。
        </li>
        <li>以 SecurityKey 为密钥对签名串计算 HMAC-SHA256，Base64 编码。</li>
        <li>
          在请求头中带上 <code>{h.appId}</code>、<code>{h.timestamp}</code>、<code>{h.nonce}</code> 和{' '}
          <code>{h.signature}</code>。时间戳与平台时钟相差超过 {OPEN_API_MAX_SKEW_SECONDS} 秒、nonce
          重复使用或签名不符的请求会被拒绝。
        </li>
      </ol>
      <pre className="code-block">
        {`POST ${OpenApiPaths.file}?title=现场照片&configName=巡检终端07
Content-Type: application/octet-stream
（请求体为文件内容）

签名串：
POST
${OpenApiPaths.file}?title=现场照片&configName=巡检终端07（按实际发送的编码）
1764230400
q8Yk3nW0c2Lr9fTzA1b7
<请求体 SHA-256>`}
      </pre>
      <p>
        完整接口说明：<a href={appUrl(OPEN_API_DOCUMENT_PATH)}>OpenAPI 3.1 文档</a>
        （上传文件、哈希保全、查询证据）。
      </p>
    </section>
  );
}
