import { describe, expect, it } from 'vitest';
import { chineseDate, documentName, officeStateLabel } from './labels.ts';

describe('chineseDate', () => {
  it('writes a date in Chinese numerals as a notarial certificate does', () => {
    expect(chineseDate('2026-01-05 09:30:00')).toBe('二〇二六年一月五日');
    expect(chineseDate('2030-10-10')).toBe('二〇三〇年十月十日');
    expect(chineseDate('2024-11-19')).toBe('二〇二四年十一月十九日');
    expect(chineseDate('2025-12-20')).toBe('二〇二五年十二月二十日');
    expect(chineseDate('2025-03-31')).toBe('二〇二五年三月三十一日');
    expect(chineseDate('2025-02-21')).toBe('二〇二五年二月二十一日');
  });

  it('leaves a value that is no date as it is', () => {
    expect(chineseDate('')).toBe('');
    expect(chineseDate('昨天')).toBe('昨天');
  });
});

describe('officeStateLabel', () => {
  it('shows the issuance state once there is one', () => {
    expect(officeStateLabel({ step: 5, notarial: 1 })).toBe('出证中');
    expect(officeStateLabel({ step: 5, notarial: 2 })).toBe('出证成功');
    expect(officeStateLabel({ step: 5, notarial: 3 })).toBe('已终止');
  });

  it('waits for acceptance when every step is done, else for the user', () => {
    expect(officeStateLabel({ step: 5, notarial: null })).toBe('待受理');
    expect(officeStateLabel({ step: 2, notarial: null })).toBe('待用户补充：在线签名');
  });
});

describe('documentName', () => {
  it('names the four documents and the certificate', () => {
    expect(documentName(1)).toBe('公证申请表');
    expect(documentName(4)).toBe('授权委托书');
    expect(documentName(5)).toBe('公证书');
  });
});
