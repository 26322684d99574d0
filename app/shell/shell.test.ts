/** The top bar's badge cap (spec 01 §9, spec 02 §9), the IE 6–9 detection and the announcement window. */
import { describe, expect, it } from 'vitest';
import { badgeText, maskMobile } from './top-bar.tsx';
import { announcementActive, isOldIe, lacksDetails } from './notices.tsx';

describe('badgeText', () => {
  it('shows the count up to 99 and 99+ above', () => {
    expect(badgeText(0)).toBe('0');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(12345)).toBe('99+');
  });
});

describe('maskMobile', () => {
  it('keeps the first three and last four digits', () => {
    expect(maskMobile('13800138000')).toBe('138****8000');
  });
});

describe('isOldIe', () => {
  it('detects IE 6 to 9 only', () => {
    expect(isOldIe('Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)')).toBe(true);
    expect(isOldIe('Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)')).toBe(true);
    expect(isOldIe('Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)')).toBe(false);
    expect(isOldIe('Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko')).toBe(false);
    // IE 11 in compatibility view claims MSIE 7.0 but carries Trident/7.0.
    expect(isOldIe('Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.3; Trident/7.0)')).toBe(false);
    expect(isOldIe('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36')).toBe(
      false,
    );
    expect(isOldIe(null)).toBe(false);
  });
});

describe('lacksDetails', () => {
  it('names the browsers without <details>: IE, EdgeHTML, the stock Android browser before 4.4', () => {
    expect(lacksDetails('Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko')).toBe(true);
    expect(lacksDetails('Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)')).toBe(true);
    expect(
      lacksDetails(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0 Safari/537.36 Edge/18.17763',
      ),
    ).toBe(true);
    expect(
      lacksDetails(
        'Mozilla/5.0 (Linux; U; Android 4.1.2; zh-cn; GT-I9300 Build/JZO54K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
      ),
    ).toBe(true);
    // Android 4.4 WebViews are Chrome-based and have <details>
    expect(
      lacksDetails(
        'Mozilla/5.0 (Linux; Android 4.4.2; Nexus 5 Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe(false);
    expect(
      lacksDetails(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
      ),
    ).toBe(false);
    expect(
      lacksDetails('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36'),
    ).toBe(false);
    expect(lacksDetails(null)).toBe(false);
  });
});

describe('announcementActive', () => {
  const window = { from: '2024-11-20T00:00:00+08:00', until: '2024-11-23T00:00:00+08:00' };
  it('is on inside [from, until) and off outside', () => {
    expect(announcementActive(window, new Date('2024-11-22T18:00:00+08:00'))).toBe(true);
    expect(announcementActive(window, new Date('2024-11-23T00:00:00+08:00'))).toBe(false);
    expect(announcementActive(window, new Date('2024-11-19T23:59:59+08:00'))).toBe(false);
  });
  it('is off when nothing is configured or the dates are bad', () => {
    expect(announcementActive(null)).toBe(false);
    expect(announcementActive({ from: 'x', until: 'y' })).toBe(false);
  });
});
