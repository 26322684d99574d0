/**
 * Settings of the certificate PDF renderer: its variables, composed into the gateway's schema (server/config/server.ts;
 * docs/decisions/050-configuration.md), and the {@link PdfConfig} derived from them.
 */
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
import { flag, integer, text } from '../../lib/config-types.ts';

/** CHROMIUM_PATH and PDF_*. */
export const PdfVars = envGroup({
  id: 'pdf',
  title: 'Certificate PDFs',
  summary:
    'The Chromium that prints certificate PDFs and captures web pages, its page pool, and the disk cache of rendered PDFs.',
  vars: {
    CHROMIUM_PATH: envVar(text({ default: '/usr/bin/chromium' }), {
      description: 'the Chromium (or Chrome) executable for PDFs and web captures',
    }),
    PDF_POOL_SIZE: envVar(integer({ name: 'PDF_POOL_SIZE', min: 1, max: 32, default: 2 }), {
      description: 'pages rendering at once',
    }),
    PDF_TIMEOUT_MS: envVar(integer({ name: 'PDF_TIMEOUT_MS', min: 1000, max: 600_000, default: 30_000 }), {
      description: 'one render (navigation and PDF) fails after this long, ms',
    }),
    PDF_QUEUE_MAX: envVar(integer({ name: 'PDF_QUEUE_MAX', min: 0, max: 100_000, default: 200 }), {
      description: 'renders waiting beyond the pool; one more is refused with 503',
    }),
    PDF_CACHE_MAX_MB: envVar(integer({ name: 'PDF_CACHE_MAX_MB', min: 1, max: 10_000_000, default: 2048 }), {
      description: 'the PDF disk cache is kept under this many MiB, least recently served out first',
    }),
    PDF_RENDER_AHEAD: envVar(flag(true), {
      description:
        'the background worker renders the certificate PDF of evidence just saved; 0: rendered on the first visit',
    }),
    PDF_CACHE_DIR: envVar(text(), {
      description:
        'where rendered PDFs are kept; gateways and the background worker sharing it let one render serve all',
      defaultText: 'DATA_DIR/cache/pdf',
    }),
  },
});

/** The renderer's settings. Times in milliseconds. */
export interface PdfConfig {
  /** The Chromium (or Chrome) executable puppeteer-core launches (CHROMIUM_PATH, default Debian's). */
  chromiumPath: string;
  /** At most this many pages render at once (PDF_POOL_SIZE, default 2). */
  poolSize: number;
  /** One job (navigation + PDF) fails after this long (PDF_TIMEOUT_MS, default 30 000). */
  timeoutMs: number;
  /** Jobs waiting beyond the pool; one more is refused with 503 (PDF_QUEUE_MAX, default 200). */
  queueMax: number;
  /** The disk cache is kept under this many bytes, least recently served out first (PDF_CACHE_MAX_MB, default 2048). */
  cacheMaxBytes: number;
  /**
   * The background worker renders the certificate PDF of evidence just saved, so its first visitor gets it from the
   * cache (PDF_RENDER_AHEAD, default 1; 0 renders on the first visit only; decision 064).
   */
  renderAhead: boolean;
  /**
   * Where rendered PDFs are kept (PDF_CACHE_DIR; default `DATA_DIR/cache/pdf`): a directory several gateways share
   * (a network volume) lets a PDF rendered by one be served by all (files are written whole, then renamed).
   */
  cacheDir: string | null;
}

/** The renderer's settings of parsed values. */
export function pdfOf(e: EnvValues<typeof PdfVars.vars>): PdfConfig {
  return {
    chromiumPath: e.CHROMIUM_PATH,
    poolSize: e.PDF_POOL_SIZE,
    timeoutMs: e.PDF_TIMEOUT_MS,
    queueMax: e.PDF_QUEUE_MAX,
    cacheMaxBytes: e.PDF_CACHE_MAX_MB * 1024 * 1024,
    renderAhead: e.PDF_RENDER_AHEAD,
    cacheDir: e.PDF_CACHE_DIR ?? null,
  };
}

/**
 * Parses the renderer's variables of `env` (a test's or a bench's).
 * @throws ConfigError listing every invalid variable, one per line.
 */
export function loadPdfConfig(env: Environment): PdfConfig {
  return pdfOf(parseEnvironment([PdfVars], env).values);
}
