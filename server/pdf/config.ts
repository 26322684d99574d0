/**
 * Settings of the certificate PDF renderer, read from the environment once when the gateway is built (zod, failing
 * fast like `server/config.ts`). They live here rather than in `GatewayConfig` so the renderer stays one module;
 * moving them into the gateway's schema later changes no caller.
 */
import { z } from 'zod';
import { booleanFlag } from '../config.ts';

const unsetIfEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** A whole-number variable between `min` and `max`; unset or empty means `fallback`. */
export const int = (name: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `${name} must be a number` })
      .int({ error: `${name} must be a whole number` })
      .min(min, { error: `${name} must be at least ${min}` })
      .max(max, { error: `${name} must be at most ${max}` })
      .default(fallback),
  );

const PdfEnv = z.object({
  CHROMIUM_PATH: z.preprocess(unsetIfEmpty, z.string().default('/usr/bin/chromium')),
  PDF_POOL_SIZE: int('PDF_POOL_SIZE', 1, 32, 2),
  PDF_TIMEOUT_MS: int('PDF_TIMEOUT_MS', 1000, 600_000, 30_000),
  PDF_QUEUE_MAX: int('PDF_QUEUE_MAX', 0, 100_000, 200),
  PDF_CACHE_MAX_MB: int('PDF_CACHE_MAX_MB', 1, 10_000_000, 2048),
  PDF_RENDER_AHEAD: booleanFlag('PDF_RENDER_AHEAD', true),
  PDF_CACHE_DIR: z.preprocess(unsetIfEmpty, z.string().optional()),
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
   * Render the certificate PDF of evidence just saved in the background, while no visitor's render waits, so its
   * first visitor gets it from the cache (PDF_RENDER_AHEAD, default 1; 0 renders on the first visit only).
   */
  renderAhead: boolean;
  /**
   * Where rendered PDFs are kept (PDF_CACHE_DIR; default `DATA_DIR/cache/pdf`): a directory several gateways share
   * (a network volume) lets a PDF rendered by one be served by all (files are written whole, then renamed).
   */
  cacheDir: string | null;
}

/**
 * Parses the renderer's variables.
 * @throws Error listing every invalid variable, one per line.
 */
export function loadPdfConfig(env: Record<string, string | undefined>): PdfConfig {
  const parsed = PdfEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid PDF renderer configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
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
