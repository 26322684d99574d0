/**
 * The /buyCredits form post (what a browser without JavaScript sends) and the /points loader against a fake
 * upstream that records every call (docs/decisions/057-points-api.md): a custom amount that is not decimal digits
 * (`1e3`, `0x10`, …) answers 400 with the contract's message and calls nothing; digits start the payment with that
 * number; /points asks the history call for the URL's page (anything but digits: page 1) and signs each entry.
 */
import { describe, expect, it } from 'vitest';
import { BillingMsg, BillingPaths } from '../../contract/billing.ts';
import { PointsPaths, type PointsHistoryData } from '../../contract/points.ts';
import { perRequest, recordingUpstreamForSuite, signedInRequest } from '../../tests/support/route-actions.ts';
import { action as buyAction } from './buy-credits.tsx';
import { loader as pointsLoader } from './points.tsx';

const HISTORY: PointsHistoryData = {
  balance: 38,
  count: 2,
  page: 1,
  pageSize: 20,
  list: [
    { id: 2, at: '2026-12-05 10:00:00', kind: 'spend', label: '公证消费', points: -12, balance: 38 },
    { id: 1, at: '2026-12-05 09:00:00', kind: 'recharge', label: '充值', points: 50, balance: 50 },
  ],
};

const suite = recordingUpstreamForSuite(({ path }) => {
  if (path === PointsPaths.history) return { code: 200, msg: '操作成功', data: HISTORY };
  if (path === BillingPaths.pay)
    return {
      code: 200,
      msg: '操作成功',
      data: {
        order_no: 'R20261205abcdefabcdefabcdefab',
        type: 3,
        url: 'weixin://x',
        amountFen: 1600,
        integral: 16,
      },
    };
  return undefined;
});
const { calls } = suite;

describe('/buyCredits: points are decimal digits only', () => {
  it('refuses a custom amount that is not decimal digits with 400 and calls nothing', async () => {
    for (const custom of ['1e3', '0x10', '+5', '5.0', '0b11', '1_000', 'Infinity', '-1']) {
      const res = await buyAction({
        request: await signedInRequest(suite.ctx, '/buyCredits', { package: '10', custom, type: '3' }),
        context: perRequest(suite.ctx),
      } as never);
      expect(res, custom).toMatchObject({
        data: { errors: { integral: BillingMsg.integralDigits } },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
  });

  it('buys the custom amount given in digits', async () => {
    const res = (await buyAction({
      request: await signedInRequest(suite.ctx, '/buyCredits', { package: '10', custom: '16', type: '3' }),
      context: perRequest(suite.ctx),
    } as never)) as Response;
    expect(res.headers.get('location')).toBe('/weChat/R20261205abcdefabcdefabcdefab');
    expect(calls.map((c) => [c.path, c.body.integral])).toEqual([[BillingPaths.pay, '16']]);
  });
});

describe('/points', () => {
  it("asks for the URL's page and shows signed points", async () => {
    for (const [search, page] of [
      ['', '1'],
      ['?page=3', '3'],
      ['?page=1e3', '1'],
      ['?page=0', '1'],
    ] as const) {
      calls.length = 0;
      const data = await pointsLoader({
        request: await signedInRequest(suite.ctx, `/points${search}`),
        context: perRequest(suite.ctx),
      } as never);
      expect(calls.map((c) => [c.path, c.query.get('page')])).toEqual([[PointsPaths.history, page]]);
      expect(data.balance).toBe(38);
      expect(data.rows.map((r) => [r.label, r.points, r.balance])).toEqual([
        ['公证消费', '-12', 38],
        ['充值', '+50', 50],
      ]);
    }
  });
});
