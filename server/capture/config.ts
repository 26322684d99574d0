/**
 * Settings of web capture (docs/decisions/037-web-capture.md): its variables, composed into the background worker's
 * schema (server/worker/config.ts; decision 064) and the gateway's, which passes them to its worker child
 * (server/config/server.ts; docs/decisions/050-configuration.md). Limits bound what one URL can make the worker do: time,
 * bytes, pages and jobs at once (the open jobs of one user are bounded by the platform: MAX_OPEN_CAPTURES_PER_USER).
 * CAPTURE_TEST_ALLOW lets tests reach local test sites (address-policy.ts); a production start — APP_ENV=production,
 * which is also APP_ENV unset — refuses it, as the platform refuses TEST_HOOKS.
 */
import { z } from 'zod';
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
import { integer } from '../../lib/config-types.ts';
import { parseAllowList } from './address-policy.ts';

/** CAPTURE_TEST_ALLOW parsed: the `address:port` keys (empty when unset). */
const testAllow = z
  .string()
  .optional()
  .transform((v, ctx): ReadonlySet<string> => {
    try {
      return parseAllowList(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });

/** CAPTURE_*. */
export const CaptureVars = envGroup({
  id: 'capture',
  title: 'Web capture',
  summary: 'Limits of one capture job and of the jobs one background worker runs at once (decision 064).',
  vars: {
    CAPTURE_TIMEOUT_MS: envVar(
      integer({ name: 'CAPTURE_TIMEOUT_MS', min: 5_000, max: 600_000, default: 60_000 }),
      {
        description: 'one capture job (all its pages) fails after this long, ms',
      },
    ),
    CAPTURE_MAX_MB: envVar(integer({ name: 'CAPTURE_MAX_MB', min: 1, max: 10_240, default: 200 }), {
      description: 'MiB one job may fetch, both directions',
    }),
    CAPTURE_MAX_PAGES: envVar(integer({ name: 'CAPTURE_MAX_PAGES', min: 1, max: 50, default: 10 }), {
      description: 'URLs one job may capture',
    }),
    CAPTURE_CONCURRENCY: envVar(integer({ name: 'CAPTURE_CONCURRENCY', min: 1, max: 32, default: 2 }), {
      description: 'capture jobs running at once in this background worker',
    }),
    CAPTURE_TEST_ALLOW: envVar(testAllow, {
      description:
        'test only: address:port pairs captures may reach although not public (and certificates they may skip)',
      defaultText: 'none',
      production: {
        refuse: (v) => v instanceof Set && v.size > 0,
        why: 'a production start refuses to let captures reach non-public addresses',
      },
    }),
  },
});

/** Capture settings. Times in milliseconds, sizes in bytes. */
export interface CaptureConfig {
  /** One capture job (all its pages) fails after this long (CAPTURE_TIMEOUT_MS, default 60 000). */
  timeoutMs: number;
  /** Bytes one job may fetch, both directions (CAPTURE_MAX_MB, default 200 MiB). */
  maxBytes: number;
  /** URLs one job may capture (CAPTURE_MAX_PAGES, default 10). */
  maxPages: number;
  /** Jobs running at once in this background worker (CAPTURE_CONCURRENCY, default 2). */
  concurrency: number;
  /**
   * `address:port` pairs reachable although not public (CAPTURE_TEST_ALLOW; tests only). When set, captures also
   * accept certificates Chromium would refuse (the tests' self-signed HTTPS site).
   */
  testAllow: ReadonlySet<string>;
}

/** The capture settings of parsed values. */
export function captureOf(e: EnvValues<typeof CaptureVars.vars>): CaptureConfig {
  return {
    timeoutMs: e.CAPTURE_TIMEOUT_MS,
    maxBytes: e.CAPTURE_MAX_MB * 1024 * 1024,
    maxPages: e.CAPTURE_MAX_PAGES,
    concurrency: e.CAPTURE_CONCURRENCY,
    testAllow: e.CAPTURE_TEST_ALLOW,
  };
}

/**
 * Parses the capture variables of `env` (a test's), with APP_ENV (default production).
 * @throws ConfigError listing every invalid variable, one per line, or when a production start (APP_ENV production
 *   or unset) sets CAPTURE_TEST_ALLOW
 */
export function loadCaptureConfig(env: Environment): CaptureConfig {
  return captureOf(parseEnvironment([CaptureVars], env).values);
}
