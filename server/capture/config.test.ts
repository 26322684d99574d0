/** Capture settings (decision 037): defaults, bounds, and the test allow-list a production start refuses. */
import { describe, expect, it } from 'vitest';
import { allowKey } from './address-policy.ts';
import { loadCaptureConfig } from './config.ts';

describe('capture configuration', () => {
  it('has bounded defaults', () => {
    expect(loadCaptureConfig({})).toEqual({
      timeoutMs: 60_000,
      maxBytes: 200 * 1024 * 1024,
      maxPages: 10,
      concurrency: 2,
      testAllow: new Set(),
    });
    expect(() => loadCaptureConfig({ CAPTURE_TIMEOUT_MS: '10' })).toThrow(
      /CAPTURE_TIMEOUT_MS must be at least/,
    );
  });

  it('takes a test allow-list outside production only', () => {
    const allow = '127.0.0.1:4555';
    expect(loadCaptureConfig({ APP_ENV: 'test', CAPTURE_TEST_ALLOW: allow }).testAllow).toEqual(
      new Set([allowKey('127.0.0.1', 4555)]),
    );
    expect(() => loadCaptureConfig({ APP_ENV: 'production', CAPTURE_TEST_ALLOW: allow })).toThrow(
      /CAPTURE_TEST_ALLOW: a production start refuses/,
    );
    expect(() => loadCaptureConfig({ CAPTURE_TEST_ALLOW: 'example.com:80' })).toThrow(/is not <ip>:<port>/);
  });

  it('refuses the allow-list with APP_ENV unset: the default is production (docs/decisions/050-configuration.md)', () => {
    expect(() => loadCaptureConfig({ CAPTURE_TEST_ALLOW: '127.0.0.1:4555' })).toThrow(
      /CAPTURE_TEST_ALLOW: a production start refuses/,
    );
    expect(() => loadCaptureConfig({ APP_ENV: '', CAPTURE_TEST_ALLOW: '127.0.0.1:4555' })).toThrow(
      /CAPTURE_TEST_ALLOW: a production start refuses/,
    );
  });
});
