/**
 * Certificate PDFs: the gateway opens its own print view of a certificate in the shared headless browser (JS off,
 * only its own origin reachable) and prints it to A4. PDFs are cached on disk under `${DATA_DIR}/cache/pdf/`, keyed by
 * evidence number, language, template version (a hash of the UI build) and a hash of the evidence's current view
 * state, so a deleted evidence or a new UI build gets a fresh PDF; concurrent requests for one key render once. The
 * most recently served complete PDFs are also held in memory under the same keys (server/pdf/held-pdfs.ts).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { EvidenceView } from '../../contract/evidence.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';
import type { BrowserPool } from './browser-pool.ts';
import {
  BAOQUAN_PATH_RE,
  fetchEvidenceView,
  printCertificatePage,
  type CertificateLang,
} from './certificate-view.ts';
import { HeldPdfs, MAX_HELD_PDF_BYTES, touch } from './held-pdfs.ts';
import { prepareLocalPage } from './page-printer.ts';
import { PdfCacheDir, statFile, viewStateHash } from './pdf-cache.ts';

export {
  BAOQUAN_PATH_RE,
  EvidenceNotFoundError,
  printPaths,
  PrintViewError,
  UpstreamError,
  type CertificateLang,
} from './certificate-view.ts';
export { templateVersionOf, viewStateHash, type ViewState } from './pdf-cache.ts';

/**
 * How long a PDF printed while the ledger had no proof for the evidence (the "账本证明暂不可用" case) is served from
 * the cache before it is printed again, in milliseconds. A complete PDF stays until the state or template changes.
 */
export const PARTIAL_TTL_MS = 60_000;

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

/** Most evidence numbers waiting for a render ahead of their first visitor. */
export const MAX_AHEAD = 32;
/** How long a render ahead waits before looking again while visitors' renders use the browser (milliseconds). */
const AHEAD_IDLE_WAIT_MS = 200;

/**
 * Renders and caches certificate PDFs. One per gateway process (decorated as `app.certificatePdf`).
 */
export class CertificateRenderer {
  private readonly inFlight = new Map<string, Promise<CertificatePdf>>();
  /** The most recently served complete PDFs, in memory beside their files. */
  private readonly held = new HeldPdfs();
  private rendersSincePrune = 0;
  private readonly cache: PdfCacheDir;
  private readonly opts: CertificateRendererOptions;

  constructor(opts: CertificateRendererOptions) {
    this.opts = opts;
    this.cache = new PdfCacheDir(opts.cacheDir, opts.cacheMaxBytes, opts.logger);
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
  fetchView(baoquan: string): Promise<EvidenceView> {
    return fetchEvidenceView(this.opts, baoquan);
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
        (page) =>
          printCertificatePage(page, this.opts.gatewayOrigin(), baoquan, lang, this.opts.navigationTimeoutMs),
        (page) => prepareLocalPage(page, this.opts.gatewayOrigin()),
      );
      const pdf = this.opts.sign ? await this.opts.sign(printed, lang) : printed;
      const file = proofReady ? complete : partial;
      await this.cache.writeAtomically(file, pdf);
      this.opts.logger.info(
        { baoquan, lang, bytes: pdf.length, ms: Date.now() - started, proof: proofReady },
        'pdf: rendered',
      );
      void this.cache.dropStale(prefix, path.basename(file));
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

  /** Prunes the disk cache down to `cacheMaxBytes` (server/pdf/pdf-cache.ts); best effort, never throws. */
  prune(): Promise<void> {
    return this.cache.prune();
  }
}
