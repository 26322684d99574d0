/**
 * Upload benchmark (`npm run bench:upload`): the product as `npm start` runs it (a child process: embedded platform,
 * temp DATA_DIR, the production UI build) receives a generated file (1 GiB, or BENCH_BYTES) through `/api` with a
 * bearer token and through the no-JS `/newAccessCard` form action, and a discard server receives the same upload
 * from the same client (bench/support/upload-compare.ts), BENCH_ROUNDS rounds (default 1). Prints per target the
 * throughput, the product's RSS growth (goal: ≤ 150 MB per GiB uploaded) and the ratio to the discard server
 * (goal: ≥ 0.5, decision 032). Run `npm run build` first. EMBEDDED_PLATFORM is passed through (worker or inline).
 *
 * Figures, not pass/fail: it exits non-zero only when an upload fails or the returned SHA-256 is wrong.
 */
import { compareUploads, type UploadSide } from './support/upload-compare.ts';
import { MiB } from './support/upload.ts';
import { median } from './support/stats.ts';
import { benchNumber, benchSetting } from './support/environment.ts';

const GROWTH_LIMIT_MB_PER_GIB = 150;
const bytes = benchNumber('BENCH_BYTES', 1024 * MiB);
const rounds = benchNumber('BENCH_ROUNDS', 1);
if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error('BENCH_BYTES must be a positive integer');
if (!Number.isSafeInteger(rounds) || rounds <= 0) throw new Error('BENCH_ROUNDS must be a positive integer');
const print = (line: string) => process.stdout.write(`${line}\n`);
const env: Record<string, string> = {};
const embedded = benchSetting('EMBEDDED_PLATFORM');
if (embedded) env.EMBEDDED_PLATFORM = embedded;
const result = await compareUploads({ bytes, rounds, env, log: print });
// A streamed upload's memory does not grow with its size: files up to 1 GiB get the same ceiling.
const limit = (GROWTH_LIMIT_MB_PER_GIB * Math.max(bytes, 1024 * MiB)) / (1024 * MiB);
const discard = median(result.discard.map((s) => s.mibPerSecond));
print('');
print(`${(bytes / MiB).toFixed(0)} MiB per upload, ${rounds} round(s), medians:`);
const line = (name: string, sides: UploadSide[]) => {
  const speed = median(sides.map((s) => s.mibPerSecond));
  const growth = Math.max(...sides.map((s) => s.rssGrowthMiB));
  print(
    `${name}: ${speed.toFixed(1)} MiB/s, ratio to the discard server ${(speed / discard).toFixed(2)} (goal ≥ 0.5), ` +
      `RSS growth at most ${growth.toFixed(1)} MiB (limit ${limit.toFixed(0)}: ${growth <= limit ? 'ok' : 'EXCEEDED'})`,
  );
};
line('api  POST /api/data/save via the proxy', result.api);
line('form POST /newAccessCard form action  ', result.form);
print(`discard server (same client):           ${discard.toFixed(1)} MiB/s`);
