/**
 * /ops/ledger (admin; decision 035): the witnesses that cosign the ledger's checkpoints — for each, the tree size it
 * last cosigned and when, and how the last attempt went (已联署 / 拒绝联署 with the witness's reason / 无法连接) — and
 * the newest refusals and changes. A refusal means a witness saw a tree of ours that does not extend the one it
 * cosigned before: history in the database may have been rewritten, and the operator must find out why.
 */
import type { Route } from './+types/witnesses';
import {
  LedgerOpsPaths,
  type LedgerWitnessesData,
  type LedgerWitnessView,
} from '../../../contract/ledger.ts';
import { beijingTime } from '../../certificate/ledger-proof.server.ts';
import { DataTable } from '../../shell/data-table.tsx';
import { opsData } from '../ops.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '账本见证 - 运营后台 - 存证云' }];

/** How the console names each status. */
const STATUS: Record<LedgerWitnessView['status'], string> = {
  new: '尚未请求',
  ok: '已联署',
  refused: '拒绝联署',
  unreachable: '无法连接',
};

const time = (seconds: number | null) => (seconds === null ? '—' : beijingTime(seconds * 1000));

export async function loader({ request, context }: Route.LoaderArgs) {
  const view = await opsData<LedgerWitnessesData>(request, context, LedgerOpsPaths.witnesses, {
    method: 'GET',
  });
  return {
    ...view,
    witnesses: view.witnesses.map((w) => ({
      ...w,
      cosignedText: time(w.cosignedAt),
      attemptedText: time(w.attemptedAt),
    })),
    events: view.events.map((e) => ({ ...e, atText: time(e.at) })),
  };
}

export default function OpsLedgerWitnesses({ loaderData: view }: Route.ComponentProps) {
  const refused = view.witnesses.filter((w) => w.status === 'refused');
  return (
    <>
      <h1>账本见证</h1>
      <p>当前账本规模：{view.treeSize}</p>
      {refused.length > 0 ? (
        <p role="alert" className="form-error" data-testid="witness-alert">
          有 {refused.length} 个见证方拒绝联署最新的账本检查点：账本历史可能已被改写，请立即核查。
        </p>
      ) : null}
      <h2>见证方</h2>
      <DataTable
        headers={['见证方', '地址', '状态', '已联署规模', '联署时间', '最近请求', '说明']}
        items={view.witnesses}
        empty="未配置见证方（LEDGER_WITNESSES）"
        row={(w) => (
          <tr key={w.name} data-testid="witness-row">
            <td>{w.name}</td>
            <td>{w.url}</td>
            <td className="nowrap">{STATUS[w.status]}</td>
            <td>{w.size}</td>
            <td>{w.cosignedText}</td>
            <td>{w.attemptedText}</td>
            <td>{w.detail}</td>
          </tr>
        )}
      />
      <h2>最近事件</h2>
      <DataTable
        headers={['时间', '见证方', '状态', '账本规模', '说明']}
        items={view.events}
        empty="暂无记录"
        row={(e) => (
          <tr key={e.id} data-testid="witness-event">
            <td>{e.atText}</td>
            <td>{e.witness}</td>
            <td className="nowrap">{STATUS[e.status]}</td>
            <td>{e.treeSize}</td>
            <td>{e.detail}</td>
          </tr>
        )}
      />
    </>
  );
}
