/**
 * /evidences-all/mobile/queue/:id: how one upload of an app went (decision 039; spec 01 §2 routes). `id` is the
 * preservation number the open API answered. An API upload is preserved in the call itself, so the page shows the
 * steps it went through — received (size, SHA-256), recorded in the ledger (position, leaf hash), certificate issued
 * — with the device the app reported and the link to the certificate. Only the owner sees it (404 otherwise).
 */
import { Fragment } from 'react';
import { data, Link } from 'react-router';
import type { Route } from './+types/mobile-queue';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import { authedCall } from '../lib/auth.server.ts';
import { formatBytes } from '../../contract/messages.ts';

export const meta: Route.MetaFunction = () => [{ title: 'App 取证进度 - 存证云' }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const baoquan = String(params.id ?? '').slice(0, 64);
  const res = await authedCall<EvidenceView>(request, context, EvidencePaths.view, { query: { baoquan } });
  if (!isSuccess(res.code) || res.data.isSelf !== 1 || res.data.kind !== 'app') {
    throw data('证据不存在', { status: 404 });
  }
  return { view: res.data };
}

/** The device rows the app reported (spec 01 §2.3's app-capture fields), those given only. */
function deviceRows(v: EvidenceView): [string, string][] {
  const rows: [string, string][] = [
    ['取证类型', v.appType],
    ['设备名称', v.configName],
    ['设备型号', v.configModelName],
    ['系统版本', v.configVersion],
    ['处理器', v.configProcessor],
    ['内核版本', v.configCore],
  ];
  return rows.filter(([, value]) => value);
}

export default function MobileQueue({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  const device = deviceRows(view);
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/evidences-all/mobile-process">App 取证</Link> / {view.title}
      </p>
      <h1>App 取证进度</h1>
      <p role="status" data-testid="queue-status" data-status={view.deletedAt ? 'deleted' : 'done'}>
        {view.deletedAt ? `已于 ${view.deletedAt} 删除原始数据，账本记录仍保留。` : '已完成保全。'}
      </p>
      <ol className="verify-steps" data-testid="step-log">
        <li data-status="pass">
          <strong>已接收文件：{view.fileName || view.title}</strong>
          <p className="break">
            {formatBytes(view.fileSize)}，SHA-256 <span className="mono">{view.filehash}</span>
          </p>
        </li>
        <li data-status="pass">
          <strong>已写入账本：第 {view.leafIndex + 1} 条</strong>
          <p className="break">
            叶哈希 <span className="mono">{view.chainhash}</span>
          </p>
        </li>
        <li data-status="pass">
          <strong>已出具保全证书：{view.saveTime}</strong>
          <p>
            <Link to={`/attestation/${encodeURIComponent(view.baoquan)}`}>查看证书 {view.baoquan}</Link>
          </p>
        </li>
      </ol>
      {device.length ? (
        <>
          <h2>设备信息</h2>
          <dl className="facts">
            {device.map(([k, v]) => (
              <Fragment key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      ) : null}
    </section>
  );
}
