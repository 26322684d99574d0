/**
 * The steady mix of page views, uploads and downloads of `bench/soak.ts`: each kind of
 * request on its own fixed schedule (open loop: a slow answer does not delay the next request), against a product on
 * loopback, counted, timed and checked:
 * - the `/login` page, anonymous;
 * - the logged-in evidence list page (`/attestation-list/file`) with the session cookie of a form login: it must
 *   answer 200 (a redirect there would mean the session was lost);
 * - the certificate page (`/attestation/<baoquan>`) of an evidence saved during the run;
 * - an upload through `POST /api/data/save` (multipart, streamed from a generated file, bearer token): the answer must
 *   carry the file's SHA-256;
 * - a download of a saved original as its owner: the signed link from `POST /api/data/downBaoquan`, then its bytes,
 *   whose size and SHA-256 must be the upload's.
 * A request that fails, answers other than 2xx/3xx (or than 200 where said) or carries wrong content counts as an
 * error of its kind. So that a stalled product cannot pile up unbounded requests, a kind sends at most
 * `MAX_IN_FLIGHT` at once; a tick that finds them all busy is skipped and counted.
 */
import { createHash } from 'node:crypto';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { ownerDownload } from '../../tests/support/pdf-whole.ts';
import { sleep } from './process.ts';
import { percentile } from './stats.ts';
import { uploadMultipart } from './upload.ts';

/** The kinds of request of the mix. */
export const KINDS = ['login page', 'list page', 'certificate page', 'upload', 'download'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Requests per second of each kind: about 10 a second in all, a moderate load for two cores that leaves room for the
 * certificate PDFs each upload has rendered ahead (about 0.2 s of CPU each), and 0.5 upload a second of 0.3–3 MiB
 * (about 0.7 MiB/s, some 1.3 GB in 30 minutes, in the temp data directory).
 */
export const RATES: Record<Kind, number> = {
  'login page': 3,
  'list page': 2,
  'certificate page': 3,
  upload: 0.5,
  download: 1,
};

/** Most requests of one kind in flight at once. */
export const MAX_IN_FLIGHT = 8;
/** Saved evidences the certificate pages and downloads pick from (the most recent ones). */
const POOL_SIZE = 50;
/** Error messages kept per kind for the report. */
const KEEP_MESSAGES = 3;

/** A generated file the uploads send: its path, size (bytes) and SHA-256 (hex). */
export interface UploadFile {
  path: string;
  size: number;
  sha256: string;
}

/** An evidence saved by the mix (or before it): what the pages and downloads need of it. */
export interface SavedEvidence {
  id: number;
  baoquan: string;
  size: number;
  sha256: string;
}

/** What the mix needs of the product: its base URL, a bearer token and a session cookie of the demo account. */
export interface MixTarget {
  base: string;
  token: string;
  cookie: string;
  files: readonly UploadFile[];
  /** Evidences saved before the run (at least one, for the first certificate pages and downloads). */
  seeded: readonly SavedEvidence[];
}

/** The tally of one kind. Latencies in milliseconds, from the request's start to its answer's last byte. */
export interface KindTally {
  ok: number;
  errors: number;
  skipped: number;
  latencies: number[];
  messages: string[];
}

/** Tallies by kind, and the figures they give. */
export type MixTally = Record<Kind, KindTally>;

/** p50 and p99 of a kind's latencies, milliseconds (NaN when it has none). */
export function latencyOf(tally: KindTally): { p50: number; p99: number } {
  if (tally.latencies.length === 0) return { p50: NaN, p99: NaN };
  return { p50: percentile(tally.latencies, 50), p99: percentile(tally.latencies, 99) };
}

/** Reads a response's body to the end (so the connection is reused) and throws unless its status is allowed. */
async function expectStatus(res: Response, what: string, only200 = false): Promise<Buffer> {
  const body = Buffer.from(await res.arrayBuffer());
  const fine = only200 ? res.status === 200 : res.status >= 200 && res.status < 400;
  if (!fine) throw new Error(`${what}: HTTP ${res.status} ${body.toString('utf8', 0, 200)}`);
  return body;
}

/** The mix's operations on `target`; `pool` holds the saved evidences they read and grows with the uploads. */
function operations(target: MixTarget, pool: SavedEvidence[]): Record<Kind, () => Promise<void>> {
  const { base } = target;
  const pick = () => pool[Math.floor(Math.random() * pool.length)]!;
  let uploads = 0;
  return {
    'login page': async () => {
      await expectStatus(await fetch(`${base}/login`, { redirect: 'manual' }), '/login');
    },
    'list page': async () => {
      const res = await fetch(`${base}/attestation-list/file`, {
        headers: { cookie: target.cookie },
        redirect: 'manual',
      });
      await expectStatus(res, '/attestation-list/file', true);
    },
    'certificate page': async () => {
      const { baoquan } = pick();
      const page = await expectStatus(
        await fetch(`${base}/attestation/${baoquan}`, { redirect: 'manual' }),
        `/attestation/${baoquan}`,
        true,
      );
      if (!page.includes(baoquan)) throw new Error(`/attestation/${baoquan}: the page does not name it`);
    },
    upload: async () => {
      const file = target.files[uploads++ % target.files.length]!;
      const answer = await uploadMultipart(
        `${base}${EvidencePaths.save}`,
        { authorization: `Bearer ${target.token}` },
        file.path,
        file.size,
      );
      const envelope = JSON.parse(answer.body) as ApiEnvelope<SaveEvidenceData>;
      if (answer.status !== 200 || envelope.data?.filehash !== file.sha256) {
        throw new Error(`upload: HTTP ${answer.status} ${answer.body.slice(0, 200)}`);
      }
      pool.push({
        id: envelope.data.id,
        baoquan: envelope.data.baoquan,
        size: file.size,
        sha256: file.sha256,
      });
      if (pool.length > POOL_SIZE) pool.shift();
    },
    download: async () => {
      const evidence = pick();
      const link = await ownerDownload(base, target.token, evidence.id);
      if (Number(link.code) !== 200 || !link.data?.downUrl) {
        throw new Error(`download link: ${JSON.stringify(link).slice(0, 200)}`);
      }
      const bytes = await expectStatus(await fetch(new URL(link.data.downUrl, base)), 'download', true);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (bytes.length !== evidence.size || sha256 !== evidence.sha256) {
        throw new Error(`download of ${evidence.baoquan}: ${bytes.length} bytes, SHA-256 ${sha256}`);
      }
    },
  };
}

/**
 * Runs the mix against `target` for `seconds` (each kind at its rate in {@link RATES}, times `scale`), then waits for
 * the requests still in flight. `onTick` is called about once a second with the seconds elapsed.
 * @returns the tallies by kind
 */
export async function runMix(
  target: MixTarget,
  seconds: number,
  scale = 1,
  onTick?: (elapsed: number) => void,
): Promise<MixTally> {
  const pool = [...target.seeded];
  const ops = operations(target, pool);
  const tally = Object.fromEntries(
    KINDS.map((k) => [k, { ok: 0, errors: 0, skipped: 0, latencies: [], messages: [] } as KindTally]),
  ) as MixTally;
  const start = performance.now();
  const end = start + seconds * 1000;
  const pending = new Set<Promise<void>>();

  const schedule = async (kind: Kind, phase: number) => {
    const interval = 1000 / (RATES[kind] * scale);
    let inFlight = 0;
    // Kinds start at different fractions of their interval so that their ticks do not coincide.
    for (let due = start + phase * interval; due < end; due += interval) {
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      if (inFlight >= MAX_IN_FLIGHT) {
        tally[kind].skipped++;
        continue;
      }
      inFlight++;
      const sent = performance.now();
      const request = ops[kind]().then(
        () => {
          tally[kind].ok++;
          tally[kind].latencies.push(performance.now() - sent);
        },
        (err: unknown) => {
          tally[kind].errors++;
          if (tally[kind].messages.length < KEEP_MESSAGES) {
            const at = ((sent - start) / 1000).toFixed(1);
            tally[kind].messages.push(`at ${at} s: ${err instanceof Error ? err.message : String(err)}`);
          }
        },
      );
      const tracked = request.finally(() => {
        inFlight--;
        pending.delete(tracked);
      });
      pending.add(tracked);
    }
  };
  const ticker = onTick ? setInterval(() => onTick((performance.now() - start) / 1000), 1000) : null;
  try {
    await Promise.all(KINDS.map((kind, i) => schedule(kind, i / KINDS.length)));
    await Promise.all([...pending]);
  } finally {
    if (ticker) clearInterval(ticker);
  }
  return tally;
}
