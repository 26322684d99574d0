/**
 * The measurements of `npm run bench:scale` (bench/scale.ts): upload throughput (MiB/s of 4 MiB multipart uploads,
 * several clients spread over the gateways) and certificate-page throughput (req/s, autocannon split over the
 * gateways), each with the CPU time the watched processes spent on it, read from /proc, per upload or request.
 */
import { readFileSync, readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { cpuSecondsOf, type Child } from './process.ts';
import { median } from './stats.ts';
import { MiB, uploadMultipart } from './upload.ts';

/** Upload size (bytes), uploads per measurement, uploads in flight at once. */
export const UPLOAD_BYTES = 4 * MiB;
export const UPLOADS = 40;
export const CLIENTS = 4;
/** Connections of the certificate-page measurement, in all (split evenly over the gateways). */
export const CONNECTIONS = 10;

/** The generated upload: its path and SHA-256 (hex); `UPLOAD_BYTES` long. */
export interface UploadFile {
  path: string;
  sha256: string;
}

/** One measurement: MiB/s or req/s, the uploads or requests it counted, and for pages autocannon's latencies (ms). */
export interface Measured {
  rate: number;
  units: number;
  p50?: number;
  p99?: number;
}

/**
 * A measurement with the CPU time the stack's processes spent on it, milliseconds per upload or request: `cpuMs` in
 * all (the stack: gateways, platforms, s3rver), `byRole` each process's share and beside them PostgreSQL's processes
 * and this bench's client (not part of `cpuMs`).
 */
export type Side = Measured & { cpuMs: number; byRole: Record<string, number> };

/** A process whose CPU time the bench reads: its role in the printed breakdown, and how to read it (seconds). */
export interface Watched {
  role: string;
  inStack: boolean;
  seconds: () => number;
}

/** CPU seconds of every process named `postgres` (the server and its backends, /proc), summed. */
export function postgresSeconds(): number {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        sum += cpuSecondsOf(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return sum;
}

/**
 * Runs `measure` and reads the CPU time (user + system, all threads; /proc) that the `watched` processes spent
 * meanwhile. A backend that ends during the measurement drops out of PostgreSQL's sum (the pools keep theirs open).
 */
export async function withCpu(watched: readonly Watched[], measure: () => Promise<Measured>): Promise<Side> {
  const before = watched.map((w) => w.seconds());
  const m = await measure();
  const byRole: Record<string, number> = {};
  let cpuMs = 0;
  watched.forEach((w, i) => {
    const ms = ((w.seconds() - before[i]!) * 1000) / m.units;
    byRole[w.role] = ms;
    if (w.inStack) cpuMs += ms;
  });
  return { ...m, cpuMs, byRole };
}

/**
 * Sends `count` uploads of `file` with the bearer `token`, `CLIENTS` at a time, client i to `gateways[i % n]`.
 * @returns MiB per second over the whole batch, and `count`
 * @throws when an answer is not the saved evidence with the file's SHA-256
 */
export async function uploadThroughput(
  gateways: Child[],
  token: string,
  file: UploadFile,
  count = UPLOADS,
): Promise<Measured> {
  let next = 0;
  const client = async (i: number) => {
    const gateway = gateways[i % gateways.length]!;
    while (next++ < count) {
      const answer = await uploadMultipart(
        `${gateway.base}${EvidencePaths.save}`,
        { authorization: `Bearer ${token}` },
        file.path,
        UPLOAD_BYTES,
      );
      const envelope = JSON.parse(answer.body) as ApiEnvelope<SaveEvidenceData>;
      if (answer.status !== 200 || envelope.data?.filehash !== file.sha256) {
        throw new Error(`upload via ${gateway.base}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
      }
    }
  };
  const from = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  return { rate: (count * UPLOAD_BYTES) / MiB / ((performance.now() - from) / 1000), units: count };
}

/**
 * Drives `urlPath` on every gateway at once for `seconds`, `CONNECTIONS` split evenly among them.
 * @returns requests per second (all gateways), their number, the median of the gateways' p50 latencies and the
 * highest of their p99 (ms; each autocannon has its own histogram)
 * @throws when any request failed or answered other than 2xx
 */
export async function pageThroughput(gateways: Child[], urlPath: string, seconds: number): Promise<Measured> {
  const results = await Promise.all(
    gateways.map((g) =>
      autocannon({
        url: `${g.base}${urlPath}`,
        connections: CONNECTIONS / gateways.length,
        duration: seconds,
      }),
    ),
  );
  for (const r of results) {
    if (r.errors > 0 || r.non2xx > 0)
      throw new Error(`${r.url}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  }
  return {
    rate: results.reduce((sum, r) => sum + r.requests.total / r.duration, 0),
    units: results.reduce((sum, r) => sum + r.requests.total, 0),
    p50: median(results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}
