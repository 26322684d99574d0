/**
 * Uploads side by side (decision 032), for `npm run bench` and `npm run bench:upload`: one generated file
 * streamed by the same client (this process) into (a) the product's `POST /api/data/save` through the gateway's
 * proxy with a bearer token, (b) the product's `/newAccessCard` form action as a browser without JavaScript sends it
 * (session cookie, CSRF token), and (c) a server that discards the body (bench/reference/discard.ts), round after
 * round with the order rotating, after one warm-up round that is not counted, each upload once the product is quiet
 * (bench/support/process.ts `settle`); then, each round, two uploads through `/api` sent one after the other without
 * waiting between them (the second meets whatever the first set off: its hashing, fsync, ledger entry, certificate
 * render job) against two into the discard server the same way (decision 032, "Where the goals stop"). The product
 * is a child process started as `npm start` does; while it receives, its resident set size is sampled every 50 ms.
 * Each product upload's answer must carry the file's SHA-256.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { login } from '../../tests/support/pdf-whole.ts';
import { median } from './stats.ts';
import { rssOf, rssSampler, settle, startProduct, startScript, type Child } from './process.ts';
import { formUploadTarget, generateFile, MiB, pageLogin, uploadMultipart } from './upload.ts';
import { demoPassword } from './environment.ts';

/** One upload as measured. */
export interface UploadSide {
  /** MiB per second, first byte sent to the answer's last byte. */
  mibPerSecond: number;
  /** The product's peak RSS growth over its RSS before the upload, MiB (NaN for the discard server). */
  rssGrowthMiB: number;
}

/** All rounds of the three targets. */
export interface UploadComparison {
  bytes: number;
  api: UploadSide[];
  form: UploadSide[];
  discard: UploadSide[];
  /** Per round, the two uploads sent back to back through `/api`, and the two into the discard server. */
  backToBack: { api: [UploadSide, UploadSide]; discard: [UploadSide, UploadSide] }[];
}

/** Options of {@link compareUploads}. */
export interface CompareUploadsOptions {
  /** The file's size, bytes. */
  bytes: number;
  rounds: number;
  /** Extra environment of the product process (e.g. EMBEDDED_PLATFORM). */
  env?: Record<string, string>;
  /** Called with a line of progress. */
  log?: (line: string) => void;
}

/** Runs `upload` while sampling `pid`'s RSS every 50 ms; its growth in MiB beside the answer. */
async function sampled<T>(pid: number, upload: () => Promise<T>): Promise<{ result: T; growthMiB: number }> {
  const sampler = rssSampler(pid);
  const baseline = sampler.peak();
  try {
    const result = await upload();
    return { result, growthMiB: (Math.max(sampler.peak(), rssOf(pid)) - baseline) / MiB };
  } finally {
    sampler.stop();
  }
}

/**
 * Measures the three targets `rounds` times.
 * @throws when a server does not start, an upload is refused, or the SHA-256 the product reports differs
 */
export async function compareUploads(opts: CompareUploadsOptions): Promise<UploadComparison> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cz-bench-upload-'));
  const children: Child[] = [];
  try {
    const file = path.join(dir, 'upload.bin');
    opts.log?.(`generating ${(opts.bytes / MiB).toFixed(0)} MiB of random data …`);
    const expectedHash = await generateFile(file, opts.bytes);
    const product = await startProduct({
      MAX_UPLOAD_BYTES: String(Math.max(opts.bytes + MiB, 2 * 1024 * MiB)),
      ...opts.env,
    });
    children.push(product);
    const discard = await startScript('bench/reference/discard.ts', {}, '/');
    children.push(discard);
    const password = demoPassword();
    const token = await login(product.base);
    const form = await formUploadTarget(product.base, await pageLogin(product.base, password));

    const viaApi = async (): Promise<UploadSide> => {
      const { result, growthMiB } = await sampled(product.pid, () =>
        uploadMultipart(
          `${product.base}${EvidencePaths.save}`,
          { authorization: `Bearer ${token}` },
          file,
          opts.bytes,
        ),
      );
      const envelope = JSON.parse(result.body) as ApiEnvelope<SaveEvidenceData>;
      if (envelope.data?.filehash !== expectedHash) {
        throw new Error(`api upload: HTTP ${result.status} ${result.body.slice(0, 300)}`);
      }
      return { mibPerSecond: opts.bytes / MiB / result.seconds, rssGrowthMiB: growthMiB };
    };
    const viaForm = async (): Promise<UploadSide> => {
      const { result, growthMiB } = await sampled(product.pid, () =>
        uploadMultipart(form.url, form.headers, file, opts.bytes),
      );
      const baoquan = decodeURIComponent(result.location?.split('/').pop() ?? '');
      const view = baoquan
        ? ((await (
            await fetch(`${product.base}${EvidencePaths.view}?baoquan=${encodeURIComponent(baoquan)}`)
          ).json()) as ApiEnvelope<{ filehash: string }>)
        : null;
      if (result.status !== 302 || view?.data?.filehash !== expectedHash) {
        throw new Error(
          `form upload: HTTP ${result.status} → ${result.location ?? result.body.slice(0, 300)}`,
        );
      }
      return { mibPerSecond: opts.bytes / MiB / result.seconds, rssGrowthMiB: growthMiB };
    };
    const intoDiscard = async (): Promise<UploadSide> => {
      const result = await uploadMultipart(`${discard.base}/`, {}, file, opts.bytes);
      if (result.status !== 200) throw new Error(`discard server: HTTP ${result.status}`);
      return { mibPerSecond: opts.bytes / MiB / result.seconds, rssGrowthMiB: NaN };
    };

    const out: UploadComparison = { bytes: opts.bytes, api: [], form: [], discard: [], backToBack: [] };
    // Two uploads, the second sent as the first's answer arrives; the second's RSS growth counts from before the
    // first (the pair is 1 GiB at 512 MiB each: the goal is ≤ 150 MB per GiB).
    const pair = async (upload: () => Promise<UploadSide>): Promise<[UploadSide, UploadSide]> => {
      const { result, growthMiB } = await sampled(product.pid, async () => [await upload(), await upload()]);
      const [a, b] = result as [UploadSide, UploadSide];
      return [
        a,
        { ...b, rssGrowthMiB: Number.isNaN(b.rssGrowthMiB) ? NaN : Math.max(b.rssGrowthMiB, growthMiB) },
      ];
    };
    // Each measured upload starts with the product quiet: a save sets off the certificate PDF's render in Chromium
    // (decision 032), which ran beside the next upload, whichever side it was (one round in three at half speed).
    const steps = [
      async () => out.api.push(await settle(product.pid).then(viaApi)),
      async () => out.form.push(await settle(product.pid).then(viaForm)),
      async () => out.discard.push(await settle(product.pid).then(intoDiscard)),
    ];
    // One warm-up round of all three, not counted (as the PDF rows' first render): the first uploads ran 20–50 % slower
    // on every side (each process's first multi-second stream: JIT, socket buffers growing, the file read from disk).
    await viaApi();
    await viaForm();
    await intoDiscard();
    for (let round = 0; round < opts.rounds; round++) {
      for (let i = 0; i < steps.length; i++) await steps[(i + round) % steps.length]!();
      await settle(product.pid);
      const apiFirst = round % 2 === 0;
      const first = await pair(apiFirst ? viaApi : intoDiscard);
      // the other pair starts quiet too: after the product's pair, its two certificate renders would run beside the
      // discard server's first upload (decision 066)
      await settle(product.pid);
      const second = await pair(apiFirst ? intoDiscard : viaApi);
      const twice = apiFirst ? { api: first, discard: second } : { api: second, discard: first };
      out.backToBack.push(twice);
      const mib = (side: UploadSide) => side.mibPerSecond.toFixed(0);
      opts.log?.(
        `upload round ${round + 1}: api ${mib(out.api.at(-1)!)}, form ${mib(out.form.at(-1)!)}, discard ` +
          `${mib(out.discard.at(-1)!)} MiB/s; back to back: api ${mib(twice.api[0])} and ${mib(twice.api[1])}, ` +
          `discard ${mib(twice.discard[0])} and ${mib(twice.discard[1])} MiB/s`,
      );
    }
    return out;
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Prints the upload rows of `npm run bench`: MiB/s via `/api` and the no-JS form against the discard server (goal
 * ≥ 0.5) and the product's RSS growth. The goal "RSS growth still ≤ 150 MB per GiB" (decision 032): a streamed
 * upload's memory does not grow with its size, so a smaller file gets the same ceiling, not a smaller one.
 */
export function printUploadRows(
  uploads: UploadComparison,
  bytes: number,
  print: (line: string) => void,
): void {
  print('');
  print(
    `| upload of ${bytes / MiB} MiB | product MiB/s | RSS growth MiB (≤ 150) | reference | MiB/s | ratio (spread) | goal |`,
  );
  print(`|---|---|---|---|---|---|---|`);
  const growthLimit = 150;
  const b2b = uploads.backToBack;
  const rows: [string, UploadSide[], UploadSide[], string][] = [
    ['streamed via /api', uploads.api, uploads.discard, 'discard server, same client'],
    ['no-JS form action', uploads.form, uploads.discard, 'discard server, same client'],
    [
      'via /api, the first of two back to back',
      b2b.map((r) => r.api[0]),
      b2b.map((r) => r.discard[0]),
      'the first of two into the discard server',
    ],
    [
      'via /api, the second of two back to back',
      b2b.map((r) => r.api[1]),
      b2b.map((r) => r.discard[1]),
      'the second of two into the discard server',
    ],
  ];
  for (const [name, sides, references, label] of rows) {
    const ratios = sides.map((side, i) => side.mibPerSecond / references[i]!.mibPerSecond);
    const ratio = median(ratios);
    const growth = Math.max(...sides.map((side) => side.rssGrowthMiB));
    print(
      `| ${name} | ${median(sides.map((side) => side.mibPerSecond)).toFixed(0)} | ${growth.toFixed(0)} ` +
        `${growth <= growthLimit ? 'PASS' : 'MISS'} | ${label} | ` +
        `${median(references.map((side) => side.mibPerSecond)).toFixed(0)} | ${ratio.toFixed(2)} ` +
        `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ≥ 0.5 ${ratio >= 0.5 ? 'PASS' : 'MISS'} |`,
    );
  }
}
