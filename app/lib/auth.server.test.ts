/** The post-login target sanitiser: same-site paths pass, anything a browser could read as another site does not. */
import { describe, expect, it } from 'vitest';
import { opsTarget } from '../ops/ops.server.ts';
import { safeTarget } from './auth.server.ts';

const FOREIGN = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/%09/evil.example'.replace('%09', '\u0009'),
  '/\u0000/evil.example',
  '/\u007f/evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '/a\\..\\/evil.example',
  '//evil.example',
  '/ /evil.example',
  '/\u3000/evil.example',
  '/é/evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  '/../evil.example',
  '',
];

describe('safeTarget', () => {
  it.each(FOREIGN)('refuses %j', (to) => {
    expect(safeTarget(to)).toBe('/attestation-list');
    expect(opsTarget(`/ops${to}`)).toMatch(/^\/ops(\/[\x21-\x7e]*)?$/);
    expect(opsTarget(to)).toBe('/ops');
  });

  it('keeps same-site paths with their query', () => {
    expect(safeTarget('/newAccessCard')).toBe('/newAccessCard');
    expect(safeTarget(' /user-center?tab=2 ')).toBe('/user-center?tab=2');
    expect(safeTarget('/attestation?title=%E4%B8%AD')).toBe('/attestation?title=%E4%B8%AD');
    expect(opsTarget('/ops/kyc?page=2')).toBe('/ops/kyc?page=2');
  });

  it('falls back on missing or non-string values', () => {
    expect(safeTarget(null)).toBe('/attestation-list');
    expect(safeTarget(undefined, '/x')).toBe('/x');
  });
});
