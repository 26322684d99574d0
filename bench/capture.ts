/**
 * Web capture benchmark (`npm run bench:capture`; decision 037): captures of a local site (three pages of ~60 KB of
 * HTML with three images each; one job = the three pages) through the real egress proxy, Chromium and WACZ packaging
 * (server/capture/web-capture.ts), BENCH_CAPTURE_JOBS jobs (default 16) with BENCH_CAPTURE_CONCURRENCY (default 4) at
 * once, as the gateway's worker runs them. Prints captures (jobs and pages) per minute, job time p50/p95, the WACZ
 * size, and the peak resident memory of this process (RSS) and of Chromium's process tree (PSS, shared pages divided
 * among the processes; sampled every 100 ms).
 * Figures, not pass/fail.
 */
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import puppeteer from 'puppeteer-core';
import { allowKey } from '../server/capture/address-policy.ts';
import { captureWeb } from '../server/capture/web-capture.ts';
import { CHROMIUM_ARGS } from '../server/pdf/browser-pool.ts';
import { rssOf, treePssOf } from './support/process.ts';
import { percentile } from './support/stats.ts';
import { benchNumber, chromiumPath } from './support/environment.ts';

const JOBS = benchNumber('BENCH_CAPTURE_JOBS', 16);
const CONCURRENCY = benchNumber('BENCH_CAPTURE_CONCURRENCY', 4);
const MiB = 1024 * 1024;

/** An image of `n` bytes of noise wrapped as a (not decodable, still fetched) PNG response. */
const image = Buffer.alloc(20_000, 7);
const paragraph = '<p>电子数据保全网页取证基准测试内容。'.repeat(40) + '</p>';

const site = http.createServer((req, res) => {
  if (req.url?.endsWith('.png')) return res.writeHead(200, { 'content-type': 'image/png' }).end(image);
  const n = req.url ?? '/';
  const imgs = [1, 2, 3].map(
    (i) => `<img src="${n.replace(/\/$/, '')}/img${i}.png" width="40" height="40" alt="">`,
  );
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><title>基准 ${n}</title><h1>${n}</h1>${imgs.join('')}${paragraph.repeat(12)}`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const port = (site.address() as AddressInfo).port;
const urls = ['/a', '/b', '/c'].map((p) => `http://127.0.0.1:${port}${p}`);

const browser = await puppeteer.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: [...CHROMIUM_ARGS],
  pipe: true,
});
const chromiumPid = browser.process()?.pid ?? 0;
const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-bench-capture-'));
let peakNode = rssOf(process.pid);
let peakChromium = treePssOf(chromiumPid);
const sampler = setInterval(() => {
  peakNode = Math.max(peakNode, rssOf(process.pid));
  peakChromium = Math.max(peakChromium, treePssOf(chromiumPid));
}, 100);

const times: number[] = [];
const sizes: number[] = [];
let next = 0;
let failed = 0;
const started = performance.now();
async function runner() {
  while (next < JOBS) {
    const n = next++;
    const t = performance.now();
    const workDir = path.join(root, `job-${n}`);
    const result = await captureWeb(browser, urls, {
      workDir,
      title: `bench ${n}`,
      timeoutMs: 60_000,
      maxBytes: 200 * MiB,
      allow: new Set([allowKey('127.0.0.1', port)]),
    });
    if (result.pages.some((p) => p.error)) failed++;
    times.push((performance.now() - t) / 1000);
    sizes.push(result.bytes);
    await fsp.rm(workDir, { recursive: true, force: true });
  }
}
try {
  await Promise.all(Array.from({ length: CONCURRENCY }, runner));
} finally {
  clearInterval(sampler);
  await browser.close();
  site.close();
  await fsp.rm(root, { recursive: true, force: true });
}
const minutes = (performance.now() - started) / 60_000;
const f1 = (x: number) => x.toFixed(1);
process.stdout.write(
  [
    `web capture bench: ${JOBS} jobs of ${urls.length} pages, ${CONCURRENCY} at once (${os.cpus().length} cores, Node ${process.version})`,
    `captures per minute: ${f1(JOBS / minutes)} jobs, ${f1((JOBS * urls.length) / minutes)} pages${failed ? ` (${failed} with errors)` : ''}`,
    `job time: p50 ${f1(percentile(times, 50))} s, p95 ${f1(percentile(times, 95))} s`,
    `WACZ size: ${f1(percentile(sizes, 50) / 1024)} KiB (p50)`,
    `peak RSS: this process ${f1(peakNode / MiB)} MiB, Chromium tree (PSS) ${f1(peakChromium / MiB)} MiB`,
    '',
  ].join('\n'),
);
