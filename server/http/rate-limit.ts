/**
 * The gateway's front-line rate limit (docs/decisions/048-shared-rate-limits.md): requests per
 * client IP per minute on the anonymous attack surface — logins, the captcha and SMS steps, the public lookups —
 * counted before a request reaches a page's loader or the platform. With `REDIS_URL` the counters live in Redis
 * (@fastify/rate-limit's Redis store over ioredis), so every gateway behind the load balancer counts one budget;
 * without it, in this process's memory. The business limits (login failures per mobile + IP, SMS quotas, public
 * lookups, extraction codes) stay in the platform's database (platform/core/attempts.ts, decision 040); this limit
 * is a cheaper, coarser guard in front of them.
 *
 * Redis down: fail open. A request the store cannot count passes, with a warning in the log (at most one a minute);
 * the database limits behind it still hold.
 *
 * Configuration (server/config/rate-limit.ts, parsed with the rest of the gateway's at start):
 * - `RATE_LIMIT_PER_MINUTE`: requests per client IP per minute in each group below (default 60; `0` turns it off).
 * - `REDIS_URL` (or `REDIS_URL_FILE`, lib/secret-files.ts): `redis://[user:password@]host:port[/db]` or
 *   `rediss://…` (TLS). Never logged.
 * - `RATE_LIMIT_NAMESPACE`: prefix of the Redis keys (default `cunzheng-rate-limit:`); deployments sharing one Redis
 *   need their own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { AccountPaths } from '../../contract/account.ts';
import { ApiCode, fail } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { NotaryPaths } from '../../contract/notary.ts';
import { OpsPaths } from '../../contract/ops.ts';
import { loadRateLimitSettings, type RateLimitSettings } from '../config/rate-limit.ts';

export {
  DEFAULT_RATE_LIMIT_NAMESPACE,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  loadRateLimitSettings,
  type RateLimitSettings,
} from '../config/rate-limit.ts';

/** The window the budget is counted in: one minute, in milliseconds (a fixed window, reset when it ends). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * How long one Redis command may take before the request passes uncounted, in milliseconds. A Redis on the same
 * network answers in well under one; this bounds what a hung Redis adds to a login.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** How long the gateway's start waits for the first Redis connection before it serves (uncounted), in milliseconds. */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;

/** At most one "not counted" warning per this many milliseconds (the others are counted into the next one). */
const OUTAGE_LOG_EVERY_MS = 60_000;

/**
 * The budgets: each client IP has RATE_LIMIT_PER_MINUTE requests a minute in each group, so a burst of lookups does
 * not lock the same office out of logging in.
 * - `login`: the user's and the operator's password logins (page and API).
 * - `sms`: the register and forgotten-password steps, every one of which makes a captcha image or sends (or checks)
 *   an SMS code, and their API calls.
 * - `lookup`: the public verification pages and calls (evidence number, hash, extraction code, notarial certificate).
 */
export type RateLimitGroup = 'login' | 'sms' | 'lookup';

/** One counted path: exact, or (`prefix`) with everything below it; a page rule also matches its `.data` twin. */
interface Rule {
  group: RateLimitGroup;
  path: string;
  prefix?: boolean;
  /** Only these methods count (upper case); all methods when absent. */
  methods?: readonly string[];
  /** A React Router page: `/login.data` (a JavaScript navigation or submission) counts as `/login`. */
  page?: boolean;
}

const lower = (p: string) => p.toLowerCase();

/**
 * What is counted (paths compared in lower case, see {@link normalisedPath}). Pages: the page routes of app/routes.ts
 * whose loader or action asks the platform for a login, a captcha, an SMS or a lookup; a GET of `/login` does none
 * of those and is free. API: the anonymous calls of contract/account.ts, contract/ops.ts and contract/verify.ts
 * (`/api/check/*` holds every public lookup and the extraction-code download), and the notarial certificate check.
 */
const RULES: readonly Rule[] = [
  { group: 'login', path: '/login', methods: ['POST'], page: true },
  { group: 'login', path: '/ops/login', methods: ['POST'], page: true },
  { group: 'login', path: lower(AccountPaths.login) },
  { group: 'login', path: lower(OpsPaths.login) },
  { group: 'sms', path: '/register', page: true },
  { group: 'sms', path: '/forgetpwd', page: true },
  // getImgCode, sendSMS, sendResetSMS and the registration itself (which checks the SMS code)
  { group: 'sms', path: lower(AccountPaths.register), prefix: true },
  { group: 'sms', path: lower(AccountPaths.resetPassword) },
  { group: 'lookup', path: '/queryauthentication', prefix: true, page: true },
  { group: 'lookup', path: '/english/safekeeping', page: true },
  // an evidence package uploaded without JavaScript: one public lookup on the platform (app/verify/package.server.ts)
  { group: 'lookup', path: '/verify', methods: ['POST'], page: true },
  { group: 'lookup', path: '/api/check', prefix: true },
  { group: 'lookup', path: lower(NotaryPaths.notarialCheck) },
];

/**
 * The path of a request URL as the rules compare it: without query (or `;` parameters), percent-decoded (the
 * platform decodes `/api/%6Cogin` to its login route), in lower case, duplicate and trailing slashes removed.
 */
export function normalisedPath(url: string): string {
  let p = url;
  const cut = p.search(/[?;#]/);
  if (cut >= 0) p = p.slice(0, cut);
  try {
    p = decodeURIComponent(p);
  } catch {
    // a malformed escape: compare the raw path (no route decodes it either)
  }
  p = p.toLowerCase().replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * The group a request is counted in, or null when it is not limited (static assets, health, certificate pages,
 * logged-in pages and calls, everything else).
 * @param method the HTTP method
 * @param url the request URL as routed (after BASE_PATH is removed), with or without query
 */
export function limitedGroup(method: string, url: string): RateLimitGroup | null {
  const path = normalisedPath(url);
  const pagePath = path.endsWith('.data') ? path.slice(0, -'.data'.length) : path;
  const m = method.toUpperCase();
  for (const rule of RULES) {
    const candidate = rule.page ? pagePath : path;
    const hit = candidate === rule.path || (rule.prefix === true && candidate.startsWith(`${rule.path}/`));
    if (hit && (!rule.methods || rule.methods.includes(m))) return rule.group;
  }
  return null;
}

/**
 * An ioredis client tuned for a limiter that fails open (the plugin's README advises against ioredis' defaults):
 * no offline queue (while disconnected a command fails at once instead of waiting for a reconnection), a bounded
 * command time, RESP2 (Redis 5 and the proxies of managed Redis services do not all speak RESP3's HELLO). It
 * reconnects in the background with ioredis' backoff.
 */
function redisClient(url: string): Redis {
  return new Redis(url, {
    protocol: 2,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectionName: 'cunzheng-gateway-rate-limit',
  });
}

/** Resolves when `redis` is ready, fails to connect, or `ms` pass, whichever comes first. */
function firstConnection(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/** The 429 answer: the envelope under `/api`, a short Chinese page elsewhere. Never stored by a cache. */
function refuse(request: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number) {
  reply.code(429).header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store');
  if (normalisedPath(request.url).startsWith('/api/')) {
    return reply
      .type('application/json; charset=utf-8')
      .send(fail(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests));
  }
  return reply
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>操作过于频繁</title></head>' +
        `<body><h1>${Msg.tooManyRequests}</h1><p>请在 ${retryAfterSeconds} 秒后重试。</p></body></html>`,
    );
}

/**
 * Registers @fastify/rate-limit on the gateway and the front-line limit of {@link limitedGroup}'s requests (one
 * `onRequest` hook on the root, so every scope registered after it — the `/api` proxy, the UI — is covered).
 * Call it on the root instance before the routes. The plugin stays `global: false`: a route may still opt in with
 * `config: { rateLimit: { max, timeWindow } }` and then shares the store. The Redis client, if any, is closed on
 * Fastify's `onClose`.
 *
 * @param settings the limit's settings (server/config/rate-limit.ts); default: the schema's (60 a minute, in memory)
 */
export async function registerRateLimits(
  app: FastifyInstance,
  settings: RateLimitSettings = loadRateLimitSettings({}),
): Promise<void> {
  if (settings.perMinute === 0) {
    // off: nothing counted, no Redis connection; routes may still opt in (memory store)
    await app.register(rateLimit, { global: false });
    return;
  }

  let redis: Redis | null = null;
  if (settings.redisUrl) {
    redis = redisClient(settings.redisUrl);
    let down = false;
    redis.on('error', (err: Error) => {
      // ioredis repeats the error at every reconnection attempt: one warning per outage
      if (!down) app.log.warn({ err }, 'rate-limit Redis unreachable: requests pass uncounted (fail open)');
      down = true;
    });
    redis.on('ready', () => {
      if (down) app.log.info('rate-limit Redis reachable again');
      down = false;
    });
    app.addHook('onClose', async () => {
      if (redis?.status === 'ready') await redis.quit().catch(() => redis?.disconnect());
      else redis?.disconnect();
    });
    await firstConnection(redis, REDIS_CONNECT_TIMEOUT_MS);
  }

  await app.register(rateLimit, {
    global: false,
    max: settings.perMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    ...(redis ? { redis, nameSpace: settings.nameSpace } : {}),
    // store errors reach the hook below, which lets the request pass and logs it
    skipOnError: false,
    // one counter per group and client: `login:203.0.113.7`; IPv6 clients by their /64, as the plugin does
    keyGenerator: (request) =>
      `${limitedGroup(request.method, request.url) ?? 'route'}:${normalizeIP(request.ip)}`,
  });
  const check = app.createRateLimit();

  let lastWarning = -Infinity;
  let uncounted = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (!limitedGroup(request.method, request.url)) return;
    let result: Awaited<ReturnType<typeof check>>;
    try {
      result = await check(request);
    } catch (err) {
      uncounted++;
      if (Date.now() - lastWarning >= OUTAGE_LOG_EVERY_MS) {
        request.log.warn({ err, uncounted }, 'rate-limit store failed: request passes uncounted (fail open)');
        lastWarning = Date.now();
        uncounted = 0;
      }
      return;
    }
    if (result.isAllowed) return;
    reply.header('x-ratelimit-limit', result.max);
    reply.header('x-ratelimit-remaining', result.remaining);
    reply.header('x-ratelimit-reset', result.ttlInSeconds);
    if (result.isExceeded) return refuse(request, reply, Math.max(1, result.ttlInSeconds));
  });
}
