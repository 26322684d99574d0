/**
 * /points (积分明细; docs/decisions/057-points-api.md; spec 02 §2 "Top bar": points with a buy link): the caller's
 * balance, a link to buy points, and every entry of their points journal, newest first — the time (Beijing), the
 * source's label as its area registered it (充值, 公证消费, 退还, …), the signed points and the balance after it —
 * 20 a page by plain links (`?page=`), so it works without JavaScript. The top bar's points figure and /buyCredits
 * link here. One GET call: `PointsPaths.history`.
 */
import { Link } from 'react-router';
import type { Route } from './+types/points';
import { isSuccess } from '../../contract/envelope.ts';
import { PointsMsg, PointsPaths, type PointsHistoryData } from '../../contract/points.ts';
import { authedCall } from '../lib/auth.server.ts';
import { DataTable } from '../shell/data-table.tsx';
import { FormErrors } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';

export const meta: Route.MetaFunction = () => [{ title: '积分明细 - 存证云' }];

/** The `page` of the URL: 1–100000 in decimal digits, anything else the first page. */
function pageOf(url: URL): number {
  const p = url.searchParams.get('page') ?? '';
  return /^[0-9]{1,6}$/.test(p) && Number(p) >= 1 && Number(p) <= 100_000 ? Number(p) : 1;
}

/** The address of page `n` of this list. */
function pageHref(n: number): string {
  return n === 1 ? '/points' : `/points?page=${n}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageOf(new URL(request.url));
  const res = await authedCall<PointsHistoryData>(request, context, PointsPaths.history, {
    method: 'GET',
    query: { page },
  });
  const ok = isSuccess(res.code);
  // Texts and signs are worked out here: the page's own JavaScript then needs no value of the contract module
  // (which would bring its zod schemas along, bench/page-weight.ts).
  return {
    page,
    pageSize: ok ? res.data.pageSize : 20,
    count: ok ? res.data.count : 0,
    balance: ok ? res.data.balance : null,
    rows: (ok ? res.data.list : []).map((e) => ({
      id: e.id,
      at: e.at,
      label: e.label,
      points: e.points > 0 ? `+${e.points}` : String(e.points),
      balance: e.balance,
    })),
    empty: PointsMsg.empty,
    error: ok ? null : res.msg,
  };
}

export default function Points({ loaderData }: Route.ComponentProps) {
  const { page, pageSize, count, balance, rows, empty, error } = loaderData;
  return (
    <section className="page">
      <div className="page-head">
        <h1>积分明细</h1>
        <div className="head-actions">
          <Link to="/buyCredits" className="button primary">
            购买积分
          </Link>
          <Link to="/redeem" className="button">
            兑换码兑换
          </Link>
        </div>
      </div>
      {balance === null ? null : (
        <p className="lead">
          当前积分：<strong data-testid="points-balance">{balance}</strong>
        </p>
      )}
      <FormErrors errors={error ? [error] : undefined} />
      <DataTable
        headers={['时间', '来源', '积分', '余额']}
        items={rows}
        empty={empty}
        row={(r) => (
          <tr key={r.id} data-testid="points-row">
            <td className="nowrap">{r.at}</td>
            <td>{r.label}</td>
            <td className="nowrap">{r.points}</td>
            <td>{r.balance}</td>
          </tr>
        )}
      />
      <Pagination page={page} pageSize={pageSize} count={count} href={pageHref} />
    </section>
  );
}
