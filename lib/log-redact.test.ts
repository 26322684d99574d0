/** The URL redaction of the request logs (docs/decisions/025-secrets-sms.md). */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './log-redact.ts';

describe('redactUrl', () => {
  it('replaces the values of secret parameters, keeping the rest and their order', () => {
    expect(redactUrl('/api/kyc/image/7?exp=1700000000&sig=ab12')).toBe(
      `/api/kyc/image/7?exp=1700000000&sig=${REDACTED}`,
    );
    expect(redactUrl('/newAccessCard?csrf=t0k&x=1')).toBe(`/newAccessCard?csrf=${REDACTED}&x=1`);
    expect(redactUrl('/a?_CSRF=1&Token=2&checkNo=3&items=BQ1.9.ff&page=2')).toBe(
      `/a?_CSRF=${REDACTED}&Token=${REDACTED}&checkNo=${REDACTED}&items=${REDACTED}&page=2`,
    );
    // an encoded key is recognised too
    expect(redactUrl('/a?%73ig=secret')).toBe(`/a?%73ig=${REDACTED}`);
  });

  it('redacts the token segment of the mobile certificate and preview links', () => {
    expect(redactUrl('/mobile/attestation/BQ1/abc.def')).toBe(`/mobile/attestation/BQ1/${REDACTED}`);
    expect(redactUrl('/mobile/previewDoc/tok/1')).toBe(`/mobile/previewDoc/${REDACTED}/1`);
    expect(redactUrl('/attestation/BQ1')).toBe('/attestation/BQ1');
  });

  it('never throws on malformed input', () => {
    expect(redactUrl('/a?%E0%A4%A=1&sig=2')).toBe(`/a?${REDACTED}&sig=${REDACTED}`);
    expect(redactUrl('/plain')).toBe('/plain');
    expect(redactUrl('/a?')).toBe('/a?');
  });
});
