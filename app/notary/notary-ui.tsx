/**
 * Parts the notarisation pages share (decision 034): the steps bar of an order (spec 02 §4 "Continue, by step": 申请材料
 * 阅读/填写, 在线签名, 数据解密, 支付, each step done, current or ahead), the evidence table of an order, and the
 * facts list (app/shell/facts.tsx). No data fetching.
 */
import { Link } from 'react-router';
import type { NotaryStepCode } from '../../contract/notary-codes.ts';
import type { NotaryDetailEvidence } from '../../contract/notary.ts';
import { STEP_TEXT } from '../../contract/notary-codes.ts';
import { DataTable } from '../shell/data-table.tsx';
import { stepPath } from './step-path.ts';

/** The order's steps 1–4 as an ordered list; `current` is the step shown, `reached` the order's step. */
export function StepsBar({
  current,
  reached,
  orderId,
  type,
}: {
  current: Exclude<NotaryStepCode, 5>;
  reached: NotaryStepCode;
  orderId: number;
  type: number;
}) {
  const steps = [1, 2, 3, 4] as const;
  return (
    <ol className="notary-steps" aria-label="公证办理步骤">
      {steps.map((s) => {
        const label = `${s}. ${STEP_TEXT[s]}`;
        const state = s === current ? 'current' : s < reached ? 'done' : 'ahead';
        return (
          <li
            key={s}
            className={`notary-step notary-step-${state}`}
            aria-current={s === current ? 'step' : undefined}
          >
            {s !== current && s <= reached ? <Link to={stepPath(s, orderId, type)}>{label}</Link> : label}
            {state === 'done' ? <span className="muted">（已完成）</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The evidences of an order: preservation number, title, file name, time, SHA-256. */
export function OrderEvidences({
  rows,
}: {
  rows: readonly Pick<NotaryDetailEvidence, 'baoquan' | 'title' | 'name' | 'saveTime' | 'fileHash'>[];
}) {
  return (
    <DataTable
      headers={['保全编号', '证据名称', '文件名', '保全时间', '文件哈希(SHA-256)']}
      items={rows}
      empty="暂无证据"
      row={(e) => (
        <tr key={e.baoquan} data-testid="notary-evidence-row">
          <td className="mono">{e.baoquan}</td>
          <td>{e.title}</td>
          <td>{e.name || '-'}</td>
          <td>{e.saveTime}</td>
          <td className="mono hash">{e.fileHash}</td>
        </tr>
      )}
    />
  );
}

export { Facts } from '../shell/facts.tsx';
