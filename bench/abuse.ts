/**
 * Abuse benchmark (`npm run bench:abuse`, docs/decisions/024-gateway-bodies.md): starts the real process as a
 * child (`server/main.ts`, embedded platform, temp DATA_DIR, the production UI build; run `npm run build` first) on
 * loopback and attacks it, one phase after the other:
 * 1. `form`: one 300 MB `application/x-www-form-urlencoded` POST to `/login` (no session needed);
 * 2. `json`: 1,000 JSON bodies of 1.5 MB (over the platform's 1 MiB JSON limit) to `/api/login`, 50 at a time;
 * 3. `loris`: 100 slow-loris connections that send a header line every second for 10 s and never finish.
 * Meanwhile a prober GETs `/login` (a server-rendered page) every 200 ms. For each phase it prints the child's peak
 * resident set size growth over its idle baseline (sampled every 50 ms from /proc; goal ≤ 50 MB), what the attack
 * got back, and the prober's answers and latency (median, max): normal requests must keep answering.
 *
 * Figures, not pass/fail. The server listens on a free loopback port.
 */
import http from 'node:http';
import net from 'node:net';
import { rssOf, rssSampler, sleep, startProduct } from './support/process.ts';
import { median } from './support/stats.ts';

const MiB = 1024 * 1024;
const GROWTH_GOAL_MB = 50;
const print = (line: string) => process.stdout.write(`${line}\n`);

/** GETs `url` every `everyMs` until stopped; reports answers, failures and latencies. */
function prober(url: string, everyMs = 200) {
  const latencies: number[] = [];
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (res.status === 200) latencies.push(performance.now() - started);
        else failures++;
      } catch {
        failures++;
      }
      await sleep(everyMs);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const empty = latencies.length === 0;
    return {
      ok: latencies.length,
      failures,
      median: empty ? NaN : median(latencies),
      max: empty ? NaN : Math.max(...latencies),
    };
  };
}

/** POSTs `total` bytes declared with Content-Length, stopping at the answer; resolves with status and bytes sent. */
function floodPost(
  url: string,
  headers: Record<string, string>,
  total: number,
): Promise<{ status: number; sent: number; error?: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(total) },
    });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, sent }));
    });
    req.on('error', (e) => {
      if (!answered) resolve({ status: 0, sent, error: e.message });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const write = () => {
      while (sent < total && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    write();
  });
}

/** Opens `count` connections that dribble header lines for `seconds`, then closes them. */
async function slowLoris(base: string, count: number, seconds: number): Promise<{ closedByServer: number }> {
  const { hostname, port } = new URL(base);
  let closedByServer = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Socket>((resolve) => {
          const s = net.connect(Number(port), hostname, () => {
            s.write(`POST /login HTTP/1.1\r\nHost: ${hostname}\r\n`);
            resolve(s);
          });
          s.on('error', () => undefined);
          s.on('close', () => {
            if (!s.destroyed || s.readyState === 'closed') closedByServer++;
          });
        }),
    ),
  );
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    for (const s of sockets) if (!s.destroyed) s.write(`X-Slow-${i}: ${'a'.repeat(16)}\r\n`);
  }
  for (const s of sockets) s.destroy();
  return { closedByServer };
}

const mb = (n: number) => (n / MiB).toFixed(1);
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} ms` : 'n/a');

const server = await startProduct({ LOG_LEVEL: 'warn' });
try {
  // Warm up (the first renders load the build), then take the idle baseline.
  for (let i = 0; i < 10; i++) await (await fetch(`${server.base}/login`)).arrayBuffer();
  await sleep(500);
  const coldBaseline = rssOf(server.pid);
  // Normal traffic of the attack's shape first (1,000 small JSON bodies, 50 at a time), so that the growth
  // measured below is what the abuse adds, not the heap a warm server grows to under any load.
  let normalNext = 0;
  const normalWorker = async () => {
    while (normalNext < 1000) {
      normalNext++;
      await floodPost(`${server.base}/api/login`, { 'content-type': 'application/json' }, 1024);
    }
  };
  await Promise.all(Array.from({ length: 50 }, normalWorker));
  await sleep(500);
  const baseline = rssOf(server.pid);
  const sampler = rssSampler(server.pid);
  print(
    `server ${server.base} (pid ${server.pid}), idle RSS ${mb(coldBaseline)} MB, after 1,000 normal requests ` +
      `${mb(baseline)} MB (the baseline); goal: growth ≤ ${GROWTH_GOAL_MB} MB`,
  );
  let worst = 0;

  const phase = async (name: string, attack: () => Promise<string>) => {
    sampler.reset();
    const stopProbe = prober(`${server.base}/login`);
    const started = performance.now();
    const result = await attack();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const probe = await stopProbe();
    const growth = sampler.peak() - baseline;
    worst = Math.max(worst, growth);
    print(
      `${name.padEnd(6)} ${seconds} s  peak RSS growth ${mb(growth)} MB  ${result}  | normal GET /login: ` +
        `${probe.ok} answered, ${probe.failures} failed, median ${ms(probe.median)}, max ${ms(probe.max)}`,
    );
  };

  await phase('form', async () => {
    const r = await floodPost(
      `${server.base}/login`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      300 * 1000 * 1000,
    );
    return `300 MB form POST → HTTP ${r.status || r.error}, ${mb(r.sent)} MB sent`;
  });

  await phase('json', async () => {
    const statuses = new Map<string, number>();
    let sent = 0;
    let next = 0;
    const worker = async () => {
      while (next < 1000) {
        next++;
        const r = await floodPost(
          `${server.base}/api/login`,
          { 'content-type': 'application/json' },
          1.5 * MiB,
        );
        const key = String(r.status || r.error);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        sent += r.sent;
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const summary = [...statuses].map(([k, v]) => `${k}×${v}`).join(', ');
    return `1000 × 1.5 MB JSON → ${summary}, ${mb(sent)} MB sent`;
  });

  await phase('loris', async () => {
    const r = await slowLoris(server.base, 100, 10);
    return `100 slow-loris connections for 10 s (${r.closedByServer} closed)`;
  });

  sampler.stop();
  print(`worst peak RSS growth ${mb(worst)} MB (goal ≤ ${GROWTH_GOAL_MB} MB)`);
} finally {
  await server.stop();
}
