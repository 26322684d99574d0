/**
 * Certificate PDF benchmark (`npm run bench:pdf`): starts the whole process in this process (embedded platform,
 * gateway, the production UI build, temp DATA_DIR), creates 200 evidences (BENCH_PDFS overrides), warms the browser,
 * then fetches every certificate PDF through the gateway with as many requests in flight as the renderer has pages
 * (PDF_POOL_SIZE, default 2), and prints p50/p95 latency and PDFs per minute; then the same PDFs again, now served
 * from the disk cache. Run `npm run build` first.
 *
 * Figures, not pass/fail: it exits non-zero only when a PDF request fails.
 */
import { loadPdfConfig } from '../server/pdf/config.ts';
import { login, startWhole, uploadEvidence } from '../tests/support/pdf-whole.ts';
import { percentile } from './support/stats.ts';
import { benchNumber, benchSetting } from './support/environment.ts';

const count = benchNumber('BENCH_PDFS', 200);
if (!Number.isSafeInteger(count) || count <= 0) throw new Error('BENCH_PDFS must be a positive integer');
const concurrency = loadPdfConfig({ PDF_POOL_SIZE: benchSetting('PDF_POOL_SIZE') }).poolSize;
const print = (line: string) => process.stdout.write(`${line}\n`);

/** Runs `fn` over `items` with `limit` in flight; resolves with each item's latency in ms and the wall time. */
async function timed<T>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const t = performance.now();
        await fn(item);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

// Renders are what this bench measures: none ahead of the first request (PDF_RENDER_AHEAD=0).
const whole = await startWhole({ LOG_LEVEL: benchSetting('LOG_LEVEL') ?? 'warn', PDF_RENDER_AHEAD: '0' });
let failed = false;
try {
  const token = await login(whole.base);
  print(`creating ${count} evidences…`);
  const baoquans: string[] = [];
  await timed(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const saved = await uploadEvidence(whole.base, token, {
        title: `基准测试证据 ${i + 1}`,
        fileName: `bench-${i + 1}.txt`,
        bytes: Buffer.from(`bench evidence ${i} ${Math.random()}`),
      });
      baoquans.push(saved.baoquan);
    },
  );

  const fetchPdf = async (baoquan: string, expect: 'miss' | 'hit') => {
    const res = await fetch(`${whole.base}/attestation/${baoquan}.pdf`);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200 || body.subarray(0, 5).toString() !== '%PDF-') {
      throw new Error(`${baoquan}: HTTP ${res.status} ${body.subarray(0, 200).toString()}`);
    }
    if (res.headers.get('x-pdf-cache') !== expect) throw new Error(`${baoquan}: expected a cache ${expect}`);
  };

  // Warm-up: launch the browser and print one certificate (fonts and styles in Chromium's memory cache).
  const pool = whole.running.gateway.certificatePdf.pool;
  await pool.warmUp();
  const warm = await uploadEvidence(whole.base, token, {
    title: '预热',
    fileName: 'warm.txt',
    bytes: Buffer.from('warm'),
  });
  await fetchPdf(warm.baoquan, 'miss');

  const rendered = await timed(baoquans, concurrency, (b) => fetchPdf(b, 'miss'));
  const cached = await timed(baoquans, concurrency, (b) => fetchPdf(b, 'hit'));
  const f = (ms: number) => `${ms.toFixed(0)} ms`;
  print('');
  print(`certificate PDFs: ${count}, concurrency ${concurrency} (PDF_POOL_SIZE), warm browser`);
  print(
    `  rendered: p50 ${f(percentile(rendered.latencies, 50))}, p95 ${f(percentile(rendered.latencies, 95))}, ` +
      `${((count / rendered.wallMs) * 60_000).toFixed(0)} PDFs/min (${(rendered.wallMs / 1000).toFixed(1)} s)`,
  );
  print(
    `  cached:   p50 ${f(percentile(cached.latencies, 50))}, p95 ${f(percentile(cached.latencies, 95))}, ` +
      `${((count / cached.wallMs) * 60_000).toFixed(0)} PDFs/min (${(cached.wallMs / 1000).toFixed(1)} s)`,
  );
  print(`  browser launches: ${pool.stats().launches}`);
} catch (err) {
  failed = true;
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
} finally {
  await whole.stop();
}
process.exit(failed ? 1 : 0);
