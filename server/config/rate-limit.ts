/**
 * The gateway's per-IP rate limit (server/http/rate-limit.ts; docs/decisions/048-shared-rate-limits.md):
 * RATE_LIMIT_PER_MINUTE, REDIS_URL (or REDIS_URL_FILE) and RATE_LIMIT_NAMESPACE, composed into server/config/server.ts.
 */
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
import { integer, text } from '../../lib/config-types.ts';

/** Default RATE_LIMIT_PER_MINUTE: requests per client IP per minute in each group (60, one a second on average). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;

/** Default RATE_LIMIT_NAMESPACE: the prefix of every Redis key of this limit. */
export const DEFAULT_RATE_LIMIT_NAMESPACE = 'cunzheng-rate-limit:';

/** The limit's settings. */
export interface RateLimitSettings {
  /** Requests per client IP per minute in each group; 0: no limit. */
  perMinute: number;
  /** Where the counters live; null: in this process's memory. */
  redisUrl: string | null;
  /** Prefix of the Redis keys. */
  nameSpace: string;
}

/** RATE_LIMIT_PER_MINUTE, REDIS_URL, RATE_LIMIT_NAMESPACE. */
export const RateLimitVars = envGroup({
  id: 'rate-limit',
  title: 'Rate limit',
  summary:
    'Per client IP and minute, in each of three groups (logins; captcha and SMS; public lookups): counted in memory, or in Redis shared by every gateway.',
  vars: {
    RATE_LIMIT_PER_MINUTE: envVar(integer({ min: 0, default: DEFAULT_RATE_LIMIT_PER_MINUTE }), {
      description: 'requests per client IP per minute in each group; 0 turns the limit off',
    }),
    REDIS_URL: envVar(
      text({
        pattern: /^rediss?:\/\/\S+$/,
        patternError: 'must be a redis:// or rediss:// URL',
      }),
      {
        description:
          'redis://[user:password@]host:port[/db] or rediss://… (TLS): counters shared by every gateway',
        secret: true,
        defaultText: 'in memory',
      },
    ),
    RATE_LIMIT_NAMESPACE: envVar(
      text({
        default: DEFAULT_RATE_LIMIT_NAMESPACE,
        pattern: /^[A-Za-z0-9:._-]{1,100}$/,
        patternError: 'must be 1–100 letters, digits or : . _ -',
      }),
      { description: 'prefix of the Redis keys; deployments sharing one Redis need their own' },
    ),
  },
});

/** The rate-limit settings of parsed values. */
export function rateLimitOf(e: EnvValues<typeof RateLimitVars.vars>): RateLimitSettings {
  return {
    perMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL ?? null,
    nameSpace: e.RATE_LIMIT_NAMESPACE,
  };
}

/**
 * RATE_LIMIT_PER_MINUTE, REDIS_URL (or REDIS_URL_FILE) and RATE_LIMIT_NAMESPACE of `env` (a test's).
 * @throws ConfigError naming each invalid variable (never REDIS_URL's value)
 */
export function loadRateLimitSettings(env: Environment): RateLimitSettings {
  return rateLimitOf(parseEnvironment([RateLimitVars], env).values);
}
