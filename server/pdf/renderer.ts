/**
 * Certificate PDFs: the gateway opens its own print view of a certificate in the shared headless browser (JS off,
 * only its own origin reachable) and prints it to A4. PDFs are cached on disk under `${DATA_DIR}/cache/pdf/`, keyed by
 * evidence number, language, template version (a hash of the UI build) and a hash of the evidence's current view
 * state, so a deleted evidence or a new UI build gets a fresh PDF; concurrent requests for one key render once. The
 * most recently served complete PDFs are also held in memory under the same keys (server/pdf/held-pdfs.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Page } from 'puppeteer-core';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import type { BrowserPool } from './browser-pool.ts';
import { prepareLocalPage } from './page-printer.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';
import { callPlatform } from '../../app/lib/platform-call.server.ts';
import { HeldPdfs, MAX_HELD_PDF_BYTES, touch } from './held-pdfs.ts';

/**
 * How long a PDF printed while the ledger had no proof for the evidence (the "账本证明暂不可用" case) is served from
 * the cache before it is printed again, in milliseconds. A complete PDF stays until the state or template changes.
 */
export const PARTIAL_TTL_MS = 60_000;

/** Size and mtime of a file, or null when it does not exist. */
async function statFile(file: string): Promise<{ file: string; size: number; mtimeMs: number } | null> {
  try {
    const s = await fsp.stat(file);
    return { file, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/** The certificate's language: the Chinese page `/attestation/…` or the English one `/English/attestation/…`. */
export type CertificateLang = 'zh' | 'en';

/** Evidence numbers the gateway accepts in a path (the platform issues `BQ` + digits + Crockford base32). */
export const BAOQUAN_PATH_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Thrown when the upstream does not know the evidence (or the number is malformed): answer 404. */
export class EvidenceNotFoundError extends Error {
  override name = 'EvidenceNotFoundError';
}
/** Thrown when the upstream cannot be reached or answers something unexpected: answer 502. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
/** Thrown when the gateway's own certificate page could not be loaded for printing. */
export class PrintViewError extends Error {
  override name = 'PrintViewError';
}

/** The part of the view that changes what a certificate shows after it was issued (hashed into the cache key). */
export interface ViewState {
  chainhash: string;
  deletedAt: string | null;
  isDownload: 0 | 1;
}

/** A certificate PDF on disk. */
export interface CertificatePdf {
  /** Absolute path of the PDF (in the cache; it stays until a newer state or template replaces it). */
  file: string;
  /** Size in bytes. */
  size: number;
  /** Weak ETag naming the template version and view state, e.g. `W/"pdf-1a2b…-3c4d…"`. */
  etag: string;
  /** True when the file was already cached (no rendering for this request). */
  fromCache: boolean;
  /**
   * The PDF's bytes when this call rendered it or the renderer holds them in memory (a complete PDF of at most 2 MiB):
   * served from memory rather than read back from `file`.
   */
  bytes?: Buffer;
}

/** Settings of a {@link CertificateRenderer}. */
export interface CertificateRendererOptions {
  /** Base URL of the upstream API without a trailing slash. */
  upstreamUrl: string;
  /** The embedded platform's call without HTTP, for the evidence's view (none in front of UPSTREAM_URL). */
  platformCall?: PlatformCall | undefined;
  /** Directory of cached PDFs, normally `${DATA_DIR}/cache/pdf` (created when missing). */
  cacheDir: string;
  /** Identifies the certificate template: a hash of the UI build (see {@link templateVersionOf}). */
  templateVersion: string;
  /** False in development: every request renders (the template changes without a new build), still single-flight. */
  reuseCache: boolean;
  /** The cache is pruned (least recently served first) down to this many bytes; checked every 50 renders. */
  cacheMaxBytes: number;
  /** Whether {@link CertificateRenderer.prerender} renders (PDF_RENDER_AHEAD). */
  renderAhead: boolean;
  pool: BrowserPool;
  /** The gateway's own base URL as the browser reaches it, e.g. `http://127.0.0.1:3000` (read per job). */
  gatewayOrigin: () => string;
  /** Per-navigation limit in milliseconds (the pool's job timeout bounds the whole job anyway). */
  navigationTimeoutMs: number;
  logger: FastifyBaseLogger;
  /** Signs a printed PDF (PAdES, server/pdf/pades.ts) before it is cached; absent: PDFs are served unsigned. */
  sign?: (pdf: Buffer, lang: CertificateLang) => Promise<Buffer>;
}

/**
 * Paths the renderer tries in order: the print view of the certificate, then the certificate page itself (used
 * while a deployment's UI has no print view; a 404 of the first moves on to the next).
 */
export function printPaths(baoquan: string, lang: CertificateLang): string[] {
  const base = `${lang === 'en' ? '/English' : ''}/attestation/${encodeURIComponent(baoquan)}`;
  return [`${base}/print`, base];
}

/**
 * The template version of a UI build: the first 16 hex characters of the SHA-256 of `${buildDirectory}/server/index.js`
 * (the server build embeds the client manifest's hashed asset names, so any change of a page or style changes it)
 * and of `salt` (settings the print view prints, e.g. PUBLIC_URL, the origin of its QR code).
 *
 * @returns the version, or null when there is no build file (development)
 */
export async function templateVersionOf(buildDirectory: string, salt = ''): Promise<string | null> {
  try {
    const bytes = await fsp.readFile(path.join(buildDirectory, 'server', 'index.js'));
    return createHash('sha256').update(bytes).update(`\0${salt}`).digest('hex').slice(0, 16);
  } catch {
    return null;
  }
}

/** SHA-256 (first 16 hex) of the canonical JSON of a view state. */
export function viewStateHash(state: ViewState): string {
  const canonical = JSON.stringify({
    chainhash: state.chainhash,
    deletedAt: state.deletedAt,
    isDownload: state.isDownload,
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** Most evidence numbers waiting for a render ahead of their first visitor. */
export const MAX_AHEAD = 32;
/** How long a render ahead waits before looking again while visitors' renders use the browser (milliseconds). */
const AHEAD_IDLE_WAIT_MS = 200;
/** How long the evidence's view may take (milliseconds): answer and body. */
const VIEW_TIMEOUT_MS = 10_000;

/**
 * Renders and caches certificate PDFs. One per gateway process (decorated as `app.certificatePdf`).
 */
export class CertificateRenderer {
  private readonly inFlight = new Map<string, Promise<CertificatePdf>>();
  /** The most recently served complete PDFs, in memory beside their files. */
  private readonly held = new HeldPdfs();
  private rendersSincePrune = 0;
  private cacheDirReady: Promise<unknown> | null = null;
  private readonly opts: CertificateRendererOptions;

  constructor(opts: CertificateRendererOptions) {
    this.opts = opts;
  }

  /** Evidence numbers waiting to be rendered ahead of their first visitor, oldest first (see {@link prerender}). */
  private readonly ahead: string[] = [];
  private aheadRunning = false;

  /** Certificates rendered ahead since start (see {@link prerender}). */
  renderedAhead = 0;

  /**
   * Renders the Chinese certificate PDF of an evidence just saved or changed, in the background, so that its first
   * visitor gets it from the cache (decision 032). Called for the platform's evidence events (consumer
   * `certificate-pdf`, server/pdf/plugin.ts; decision 059). Only one such render runs at a time, and only while no
   * visitor's render is running or waiting: it yields the browser to them. At most {@link MAX_AHEAD} numbers wait;
   * more are dropped (their first visitor renders them as before). Nothing happens with PDF_RENDER_AHEAD=0 or in
   * development (no cache reuse). Never throws; failures are logged at debug level.
   */
  prerender(baoquan: string): void {
    if (!this.aheadEnabled) return;
    if (!BAOQUAN_PATH_RE.test(baoquan) || this.ahead.length >= MAX_AHEAD) return;
    if (!this.ahead.includes(baoquan)) this.ahead.push(baoquan);
    void this.renderAhead();
  }

  /** Whether {@link prerender} renders: PDF_RENDER_AHEAD on and the cache reused (not development). */
  get aheadEnabled(): boolean {
    return this.opts.renderAhead && this.opts.reuseCache;
  }
  /** How many more numbers {@link prerender} would queue now (0 when it renders nothing ahead). */
  aheadRoom(): number {
    return this.aheadEnabled ? Math.max(0, MAX_AHEAD - this.ahead.length) : 0;
  }

  private async renderAhead(): Promise<void> {
    if (this.aheadRunning) return;
    this.aheadRunning = true;
    try {
      while (this.ahead.length > 0) {
        const { active, queued } = this.opts.pool.stats();
        if (active > 0 || queued > 0 || this.inFlight.size > 0) {
          await new Promise((r) => setTimeout(r, AHEAD_IDLE_WAIT_MS).unref());
          continue;
        }
        const baoquan = this.ahead.shift()!;
        await this.getPdf(baoquan, 'zh').then(
          () => void this.renderedAhead++,
          (err: unknown) => this.opts.logger.debug({ baoquan, err }, 'pdf: render ahead failed'),
        );
      }
    } finally {
      this.aheadRunning = false;
    }
  }

  /** The pool the renderer prints with (tests kill its browser; the bench reads its stats). */
  get pool(): BrowserPool {
    return this.opts.pool;
  }

  /**
   * The evidence's view as anyone sees it: `GET ${upstream}/api/share/getView?baoquan=` without a token.
   *
   * @throws EvidenceNotFoundError (code 404 or a malformed number); UpstreamError (unreachable, or neither 200 nor 404)
   */
  async fetchView(baoquan: string): Promise<EvidenceView> {
    if (!BAOQUAN_PATH_RE.test(baoquan)) throw new EvidenceNotFoundError(baoquan);
    const url = `${EvidencePaths.view}?baoquan=${encodeURIComponent(baoquan)}`;
    let env: ApiEnvelope<EvidenceView>;
    try {
      // it runs on every PDF request, cached or not: without HTTP when the platform is embedded
      const answer = await callPlatform(
        this.opts,
        { method: 'GET', url, headers: { accept: 'application/json' } },
        AbortSignal.timeout(VIEW_TIMEOUT_MS),
      );
      env = JSON.parse(answer.body) as ApiEnvelope<EvidenceView>;
    } catch (err) {
      throw new UpstreamError(`getView failed: ${(err as Error).message}`, { cause: err });
    }
    if (Number(env.code) === 404) throw new EvidenceNotFoundError(baoquan);
    if (Number(env.code) !== 200 || !env.data) throw new UpstreamError(`getView answered code ${env.code}`);
    return env.data;
  }

  /**
   * The certificate PDF of `baoquan` in `lang`: from the cache when the template and the evidence's state are
   * unchanged, else rendered (once for concurrent callers) and cached atomically (temp file + rename).
   *
   * @throws EvidenceNotFoundError, UpstreamError, PrintViewError, and the pool's PoolBusyError / RenderTimeoutError /
   *   PoolClosedError
   */
  async getPdf(baoquan: string, lang: CertificateLang = 'zh'): Promise<CertificatePdf> {
    const view = await this.fetchView(baoquan);
    const stateHash = viewStateHash({
      chainhash: view.chainhash,
      deletedAt: view.deletedAt ?? null,
      isDownload: view.isDownload,
    });
    const prefix = `${baoquan}.${lang}.`;
    const key = `${prefix}${this.opts.templateVersion}.${stateHash}`;
    const complete = path.join(this.opts.cacheDir, `${key}.pdf`);
    const partial = path.join(this.opts.cacheDir, `${key}.partial.pdf`);
    const etag = `W/"pdf-${this.opts.templateVersion}-${stateHash}"`;

    if (this.opts.reuseCache) {
      const held = this.held.recall(key, complete);
      if (held) return { file: complete, size: held.length, etag, fromCache: true, bytes: held };
      const hit =
        (await statFile(complete)) ??
        (await statFile(partial).then((s) => (s && Date.now() - s.mtimeMs < PARTIAL_TTL_MS ? s : null)));
      if (hit) {
        if (hit.file !== complete) return { file: hit.file, size: hit.size, etag, fromCache: true };
        // The mtime of a complete PDF records when it was last served: pruning drops the least recently served.
        void touch(complete);
        if (hit.size > MAX_HELD_PDF_BYTES) return { file: complete, size: hit.size, etag, fromCache: true };
        const bytes = await fsp.readFile(complete).catch(() => null);
        if (bytes) {
          this.held.hold(key, bytes);
          return { file: complete, size: bytes.length, etag, fromCache: true, bytes };
        }
      }
    }

    const running = this.inFlight.get(key);
    if (running) return running;
    const render = (async (): Promise<CertificatePdf> => {
      const started = Date.now();
      // Whether the printed page holds the ledger proof summary is read from the page itself: a PDF printed without
      // one (the proof not there yet, or its call failed) is "partial" and kept only for a while.
      const { pdf: printed, proof: proofReady } = await this.opts.pool.run(
        (page) => this.printPage(page, baoquan, lang),
        (page) => prepareLocalPage(page, this.opts.gatewayOrigin()),
      );
      const pdf = this.opts.sign ? await this.opts.sign(printed, lang) : printed;
      const file = proofReady ? complete : partial;
      await this.ensureCacheDir();
      const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fsp.writeFile(tmp, pdf);
        await fsp.rename(tmp, file);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
      this.opts.logger.info(
        { baoquan, lang, bytes: pdf.length, ms: Date.now() - started, proof: proofReady },
        'pdf: rendered',
      );
      void this.dropStale(prefix, path.basename(file));
      if (++this.rendersSincePrune >= 50) {
        this.rendersSincePrune = 0;
        void this.prune();
      }
      if (proofReady && this.opts.reuseCache) this.held.hold(key, pdf);
      return { file, size: pdf.length, etag, fromCache: false, bytes: pdf };
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, render);
    return render;
  }

  /**
   * Opens the print view in `page` (JS off, other origins blocked) and prints it to an A4 PDF; `proof` tells whether
   * the page printed the ledger proof summary (its `data-ledger-proof` element, certificate-sheet.tsx).
   */
  private async printPage(
    page: Page,
    baoquan: string,
    lang: CertificateLang,
  ): Promise<{ pdf: Buffer; proof: boolean }> {
    const origin = this.opts.gatewayOrigin();
    const candidates = printPaths(baoquan, lang);
    for (let i = 0; i < candidates.length; i++) {
      const url = `${origin}${candidates[i]}`;
      const res = await page.goto(url, { waitUntil: 'load', timeout: this.opts.navigationTimeoutMs });
      const status = res?.status() ?? 0;
      if (status === 404 && i < candidates.length - 1) continue;
      if (status === 404) throw new EvidenceNotFoundError(baoquan);
      if (status < 200 || status >= 300) throw new PrintViewError(`${url} answered ${status}`);
      break;
    }
    // Web fonts (the CJK font) load lazily, after layout: print only once they are in.
    const proof = await page.evaluate(() =>
      document.fonts.ready.then(() => document.querySelector('[data-ledger-proof]') !== null),
    );
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    return { pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), proof };
  }

  private ensureCacheDir(): Promise<unknown> {
    this.cacheDirReady ??= fsp.mkdir(this.opts.cacheDir, { recursive: true }).catch((err: unknown) => {
      this.cacheDirReady = null;
      throw err;
    });
    return this.cacheDirReady;
  }

  /**
   * Deletes the least recently served PDFs until the cache holds at most `cacheMaxBytes` (with 10% headroom so it
   * does not run on every check); temp files older than an hour (a crash mid-write) go too. Best effort.
   */
  async prune(): Promise<void> {
    try {
      const files: { file: string; size: number; mtimeMs: number }[] = [];
      for (const name of await fsp.readdir(this.opts.cacheDir)) {
        const s = await statFile(path.join(this.opts.cacheDir, name));
        if (!s) continue;
        if (name.endsWith('.tmp')) {
          if (Date.now() - s.mtimeMs > 3600_000) await fsp.rm(s.file, { force: true });
        } else if (name.endsWith('.pdf')) files.push(s);
      }
      let total = files.reduce((sum, f) => sum + f.size, 0);
      if (total <= this.opts.cacheMaxBytes) return;
      files.sort((a, b) => a.mtimeMs - b.mtimeMs);
      const target = this.opts.cacheMaxBytes * 0.9;
      let removed = 0;
      for (const f of files) {
        if (total <= target) break;
        await fsp.rm(f.file, { force: true });
        total -= f.size;
        removed++;
      }
      this.opts.logger.info({ removed, bytes: total }, 'pdf: cache pruned');
    } catch (err) {
      this.opts.logger.warn({ err }, 'pdf: could not prune the cache');
    }
  }

  /** Removes older PDFs of the same evidence and language (another state or template); best effort. */
  private async dropStale(prefix: string, keep: string): Promise<void> {
    try {
      for (const name of await fsp.readdir(this.opts.cacheDir)) {
        if (name.startsWith(prefix) && name.endsWith('.pdf') && name !== keep) {
          await fsp.rm(path.join(this.opts.cacheDir, name), { force: true });
        }
      }
    } catch (err) {
      this.opts.logger.debug({ err }, 'pdf: could not prune the cache');
    }
  }
}
