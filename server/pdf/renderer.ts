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
import { fetchEvidenceView, printCertificatePage, type CertificateLang } from './certificate-view.ts';
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
 * Renders and caches certificate PDFs. One per gateway process (decorated as `app.certificatePdf`, for visitors)
 * and one in the background worker (rendering ahead of the first visitor into the same cache; decision 064).
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
