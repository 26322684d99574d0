/** The list filters of spec 01 §2.4: Beijing-day boundaries, end of day = start + 86400 − 1 (spec 01 §9). */
import { describe, expect, it } from 'vitest';
import { beijingDayStart, pageHref, readFilters, toListQuery } from './filters.ts';

describe('evidence list filters', () => {
  it('turns dates into Beijing-time unix seconds, the end date to the end of that day', () => {
    const f = readFilters(
      new URL('http://x/?startDate=2026-11-01&endDate=2026-11-23&type=2&label=合同&keyword=租赁&page=3'),
    );
    const q = toListQuery(f, 20);
    expect(q.startTime).toBe(Date.UTC(2026, 9, 31, 16, 0, 0) / 1000);
    expect(q.endTime).toBe(Date.UTC(2026, 10, 22, 16, 0, 0) / 1000 + 86399);
    expect(q).toMatchObject({ type: 2, label: '合同', keyword: '租赁', page: 3, limit: 20 });
  });
  it('drops bad values instead of passing them on', () => {
    const f = readFilters(new URL('http://x/?startDate=2026-13-45x&type=9&page=-1'));
    expect(f).toMatchObject({ startDate: '', type: 0, page: 1 });
    expect(beijingDayStart('not a date')).toBeUndefined();
    expect(toListQuery(f, 20).startTime).toBeUndefined();
  });
  it('keeps the filters in pagination links', () => {
    const f = readFilters(new URL('http://x/?keyword=a b&type=1'));
    expect(pageHref(f, 2)).toBe('?type=1&keyword=a+b&page=2');
    expect(pageHref(f, 1)).toBe('?type=1&keyword=a+b');
  });
});
