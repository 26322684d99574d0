/** The /orders filters (spec 02 §2 "Orders", §9): Beijing-day boundaries, end of day = 00:00 + 86400 − 1. */
import { describe, expect, it } from 'vitest';
import {
  beijingDayStart,
  ordersHref,
  readOrderFilters,
  statusChoices,
  toOrderListQuery,
} from './order-filters.ts';

const at = (search: string) => readOrderFilters(new URL(`http://x/orders${search}`));

describe('orders filters', () => {
  it('turns the dates into Beijing-time unix seconds, the end date to the end of its day', () => {
    const f = at('?type=2&startDate=2026-11-01&endDate=2026-11-23&isType=4&page=3');
    expect(toOrderListQuery(f)).toEqual({
      type: 2,
      page: 3,
      startTime: Date.UTC(2026, 9, 31, 16, 0, 0) / 1000,
      endTime: Date.UTC(2026, 10, 22, 16, 0, 0) / 1000 + 86399,
      isType: 4,
    });
  });
  it('defaults to the recharge tab, every status, page 1; drops bad values', () => {
    expect(at('')).toEqual({ tab: 1, startDate: '', endDate: '', status: 0, page: 1 });
    expect(at('?type=9&startDate=2026-13-45&endDate=x&isType=7&page=-2')).toEqual({
      tab: 1,
      startDate: '',
      endDate: '',
      status: 0,
      page: 1,
    });
    expect(toOrderListQuery(at(''))).toEqual({
      type: 1,
      page: 1,
      startTime: undefined,
      endTime: undefined,
      isType: undefined,
    });
    expect(beijingDayStart('2026-02-30')).toBeUndefined();
  });
  it('offers the notary texts on tab 3 (no 支付失败 there)', () => {
    expect(Object.values(statusChoices(1))).toEqual(['待支付', '已支付', '已取消', '支付失败']);
    expect(Object.values(statusChoices(3))).toEqual(['待支付', '已支付', '已取消订单']);
    expect(at('?type=3&isType=4').status).toBe(0);
  });
  it('keeps the filters in the pagination links and after a cancel', () => {
    const f = at('?type=1&endDate=2026-11-23&isType=1&page=2');
    expect(ordersHref(f, { page: 3 })).toBe('/orders?endDate=2026-11-23&isType=1&page=3');
    expect(ordersHref(f, { page: 1 })).toBe('/orders?endDate=2026-11-23&isType=1');
    expect(ordersHref(f, { done: 'cancelled' })).toBe(
      '/orders?endDate=2026-11-23&isType=1&page=2&done=cancelled',
    );
    expect(ordersHref(at('?type=3'))).toBe('/orders?type=3');
  });
});
