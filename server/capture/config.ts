/**
 * Settings of web capture (decision 037), read from the environment once (zod, failing fast like
 * server/config.ts). Limits bound what one URL can make the gateway do: time, bytes, pages and jobs at once (the
 * open jobs of one user are bounded by the platform: MAX_OPEN_CAPTURES_PER_USER). CAPTURE_TEST_ALLOW lets tests reach local test sites (address-policy.ts); a production start
 * (APP_ENV=production) refuses it, as the platform refuses TEST_HOOKS.
 */
import { z } from 'zod';
import { int } from '../pdf/config.ts';
import { parseAllowList } from './address-policy.ts';

const CaptureEnv = z.object({
  APP_ENV: z.string().optional(),
  CAPTURE_TIMEOUT_MS: int('CAPTURE_TIMEOUT_MS', 5_000, 600_000, 60_000),
  CAPTURE_MAX_MB: int('CAPTURE_MAX_MB', 1, 10_240, 200),
  CAPTURE_MAX_PAGES: int('CAPTURE_MAX_PAGES', 1, 50, 10),
  CAPTURE_CONCURRENCY: int('CAPTURE_CONCURRENCY', 1, 32, 2),
  CAPTURE_TEST_ALLOW: z.string().optional(),
});

/** Capture settings. Times in milliseconds, sizes in bytes. */
export interface CaptureConfig {
  /** One capture job (all its pages) fails after this long (CAPTURE_TIMEOUT_MS, default 60 000). */
  timeoutMs: number;
  /** Bytes one job may fetch, both directions (CAPTURE_MAX_MB, default 200 MiB). */
  maxBytes: number;
  /** URLs one job may capture (CAPTURE_MAX_PAGES, default 10). */
  maxPages: number;
  /** Jobs running at once on this gateway (CAPTURE_CONCURRENCY, default 2). */
  concurrency: number;
  /**
   * `address:port` pairs reachable although not public (CAPTURE_TEST_ALLOW; tests only). When set, captures also
   * accept certificates Chromium would refuse (the tests' self-signed HTTPS site).
   */
  testAllow: ReadonlySet<string>;
}

/**
 * Parses the capture variables.
 * @throws Error listing every invalid variable, one per line, or when APP_ENV=production sets CAPTURE_TEST_ALLOW
 */
export function loadCaptureConfig(env: Record<string, string | undefined>): CaptureConfig {
  const parsed = CaptureEnv.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  let testAllow = new Set<string>();
  try {
    testAllow = parseAllowList(env.CAPTURE_TEST_ALLOW);
  } catch (err) {
    problems.push(`  ${(err as Error).message}`);
  }
  if (env.APP_ENV === 'production' && testAllow.size > 0) {
    problems.push(
      '  CAPTURE_TEST_ALLOW: a production start refuses to let captures reach non-public addresses',
    );
  }
  if (!parsed.success || problems.length > 0) {
    throw new Error(`Invalid capture configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  return {
    timeoutMs: e.CAPTURE_TIMEOUT_MS,
    maxBytes: e.CAPTURE_MAX_MB * 1024 * 1024,
    maxPages: e.CAPTURE_MAX_PAGES,
    concurrency: e.CAPTURE_CONCURRENCY,
    testAllow,
  };
}
