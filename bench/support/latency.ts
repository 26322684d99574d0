/**
 * Latency at a fixed request rate (decision 032, the `/api` row's "p99 added"), for `npm run bench`. autocannon
 * drives a server as fast as it answers, where latency is only throughput seen from the other side (10 connections ÷
 * req/s, Little's law) and its histogram keeps whole milliseconds; a goal of "≤ 1 ms added" needs the proxy's own
 * latency, to a fraction of a millisecond, under a load both sides carry. This sends requests on a fixed schedule
 * (open loop: a slow answer does not delay the next request, so a server's stall shows in every request it holds up)
 * over a keep-alive undici pool and times each from the moment it is handed to the pool to its answer's last byte, so
 * time spent waiting for a free connection counts, and a stall of this client's own between two sends does not.
 */
import { Pool } from 'undici';
import { sleep } from './process.ts';
import { percentile } from './stats.ts';

/** A request to time: the URL and, for a call other than a GET, its method, headers and body. */
export interface LatencyTarget {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** Milliseconds (fractional): the median and 99th percentile of the requests' latencies. */
export interface LatencyFigures {
  p50: number;
  p99: number;
}

/** The figures of `latencies` (milliseconds). */
export function latencyFigures(latencies: readonly number[]): LatencyFigures {
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * Sends `rate` requests a second to `target` for `seconds` over `connections` keep-alive connections; the figures and
 * every latency (ms, in the order the answers came).
 * @throws when any answer is not a 2xx or a request fails
 */
export async function latencyAtRate(
  target: LatencyTarget,
  rate: number,
  seconds: number,
  connections = 10,
): Promise<LatencyFigures & { latencies: number[] }> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections, pipelining: 1 });
  const path = `${url.pathname}${url.search}`;
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      const sent = performance.now();
      pending.push(
        pool
          .request({
            path,
            method: target.method ?? 'GET',
            ...(target.headers ? { headers: target.headers } : {}),
            ...(target.body !== undefined ? { body: target.body } : {}),
          })
          .then(async (res) => {
            await res.body.dump();
            if (res.statusCode < 200 || res.statusCode > 299)
              throw new Error(`${target.url}: HTTP ${res.statusCode}`);
            latencies.push(performance.now() - sent);
          }),
      );
    }
    await Promise.all(pending);
  } finally {
    await pool.close();
  }
  return { ...latencyFigures(latencies), latencies };
}
