/**
 * The `/api` row of `npm run bench` (decision 032, "Where the goals stop"): the product's gateway alone (`npm start` with
 * UPSTREAM_URL: no embedded platform, no worker) and a bare Fastify + `@fastify/http-proxy` (bench/reference/proxy.ts),
 * both in front of one platform process of their own (`npm run start:platform`, SQLite in a temp DATA_DIR), each
 * process's CPU read on its own. Also where the PDF row's reference has its PDFs signed: a product's embedded
 * platform, reached with the bench's internal key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RUNTIME_FLAGS } from '../../server/runtime-flags.ts';
import { login } from '../../tests/support/pdf-whole.ts';
import type { PdfSigner } from './pdf-compare.ts';
import { listeningPortsOf, startProduct, startScript, type Child } from './process.ts';
import type { Row } from './rows.ts';
import { startPlatform } from './scale-processes.ts';

/** The internal key of the bench's products and platform (never a production value). */
export const BENCH_INTERNAL_KEY = 'bench-internal-key-bench-internal-key-0001';
/** The `/api` row's call: what every page of a signed-in user asks first (the user's info, spec 02 "Route guard"). */
const API_PATH = '/api/user/getAuthInfo';

/** The split setup: one platform process, the product's gateway and the bare proxy in front of it. */
export interface Split {
  platform: Child;
  gateway: Child;
  bareProxy: Child;
  /** A bearer token of the demo account, got through the gateway. */
  token: string;
}

/**
 * Starts the platform, the gateway and the bare proxy (pushed onto `children`, the platform's directory onto
 * `cleanups`): the `/api` row's two sides, and the certificate page row's product (its reference page calls the same
 * platform, bench/reference/app/routes/certificate.tsx).
 * @throws when a process does not start or the demo login fails
 */
export async function startSplit(
  children: Child[],
  cleanups: (() => void | Promise<void>)[],
): Promise<Split> {
  const platformDir = mkdtempSync(path.join(os.tmpdir(), 'cz-bench-platform-'));
  cleanups.push(() => rmSync(platformDir, { recursive: true, force: true }));
  const platform = await startPlatform({
    APP_ENV: 'test',
    DATA_DIR: platformDir,
    SCRYPT_N: '1024',
    SEED_DEMO: '1',
    INTERNAL_API_KEY: BENCH_INTERNAL_KEY,
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  children.push(platform);
  const gateway = await startProduct({
    UPSTREAM_URL: platform.base,
    INTERNAL_API_KEY: BENCH_INTERNAL_KEY,
    BACKGROUND_WORKER: 'off',
    PDF_RENDER_AHEAD: '0',
  });
  children.push(gateway);
  const bareProxy = await startScript(
    'bench/reference/proxy.ts',
    { NODE_ENV: 'production', UPSTREAM_URL: platform.base },
    '/',
    undefined,
    RUNTIME_FLAGS,
  );
  children.push(bareProxy);
  return { platform, gateway, bareProxy, token: await login(gateway.base) };
}

/** The `/api` row of `split`: CPU per call ≤ 1.1× the bare proxy's, p99 added ≤ 1 ms at half its capacity. */
export function apiRow({ gateway, bareProxy, token }: Split): Row {
  const call = {
    method: 'POST' as const,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  };
  return {
    name: '/api via gateway',
    product: { url: `${gateway.base}${API_PATH}`, pid: gateway.pid, ...call },
    reference: {
      url: `${bareProxy.base}${API_PATH}`,
      pid: bareProxy.pid,
      ...call,
      label: 'bare Fastify + @fastify/http-proxy, same platform',
    },
    cpuGoal: 1.1,
    p99AddedGoalMs: 1,
    fixedRateShare: 0.5,
  };
}

/**
 * The embedded platform of `product` (started with INTERNAL_API_KEY = {@link BENCH_INTERNAL_KEY}): the process's
 * other listening port that answers the platform's API for `token` (the sandbox providers listen too).
 * @throws when none answers
 */
export async function embeddedPlatformSigner(product: Child, token: string): Promise<PdfSigner> {
  for (const port of listeningPortsOf(product.pid).filter((p) => p !== product.port)) {
    const res = await fetch(`http://127.0.0.1:${port}${API_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200)
      return { platformUrl: `http://127.0.0.1:${port}`, internalKey: BENCH_INTERNAL_KEY };
  }
  throw new Error('the embedded platform port was not found');
}
