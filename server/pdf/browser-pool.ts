/**
 * One headless Chromium (puppeteer-core on the system's Chromium), launched on first use and reused, with a bounded
 * pool of pages: at most `poolSize` jobs run at once, up to `queueMax` more wait, and each job has a timeout. A
 * browser that crashes or disconnects is relaunched by the next job; a job that lost its browser midway is retried
 * once on a fresh one. Owned by the PDF renderer (`server/pdf/renderer.ts`); closed on gateway shutdown.
 */
import type { Logger } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { Browser, Page } from 'puppeteer-core';
import { BrowserGoneError, HUNG_AFTER_TIMEOUTS, isBrowserGone, launchChromium } from './chromium.ts';

export { BrowserGoneError, CHROMIUM_ARGS, launchChromium } from './chromium.ts';

/** Thrown when the pool and its queue are full: the caller answers 503 with Retry-After. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}
/** Thrown when a job took longer than the pool's timeout; its page has been closed. */
export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}
/** Thrown for jobs submitted after (or waiting during) `close()`. */
export class PoolClosedError extends Error {
  override name = 'PoolClosedError';
}

/** Settings of a {@link BrowserPool}. Times in milliseconds. */
export interface BrowserPoolOptions {
  chromiumPath: string;
  /** Pages rendering at once (≥ 1). */
  poolSize: number;
  /** Jobs allowed to wait for a page; the next one gets PoolBusyError. */
  queueMax: number;
  /** Per-job limit: from getting a page to the job's result (launching a browser included). */
  timeoutMs: number;
  logger: Logger | FastifyBaseLogger;
}

/** Counters for tests, the bench and logs. */
export interface BrowserPoolStats {
  active: number;
  queued: number;
  /** Browsers launched since the pool was created (1 when nothing ever crashed). */
  launches: number;
  /** Jobs finished with a result. */
  completed: number;
  /** Seconds those jobs took in all, from getting a page to the result (the mean render time is the ratio). */
  completedSeconds: number;
  /** Pages opened since the pool was created (pages are reused between successful jobs). */
  pagesOpened: number;
}

/**
 * A reusable headless browser with a bounded page pool. Create one per process; call {@link close} on shutdown.
 */
export class BrowserPool {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: Array<(err?: Error) => void> = [];
  private closed = false;
  private launches = 0;
  private completed = 0;
  private completedMs = 0;
  private timeoutsInARow = 0;
  /** Pages of the current browser whose last job succeeded, kept for the next jobs (at most poolSize). */
  private idle: Page[] = [];
  private pagesOpened = 0;
  private readonly opts: BrowserPoolOptions;

  constructor(opts: BrowserPoolOptions) {
    this.opts = opts;
  }

  /**
   * Runs `job` with a page of the shared browser: one a previous job finished with successfully, or a new one
   * (opening a page costs about as much as printing a certificate). A page whose job failed or timed out is closed,
   * never handed out again; so are pages beyond `poolSize` and pages of a browser that went away. The page keeps
   * what earlier jobs set on it (listeners, JavaScript switched off): `prepare`, when given, runs once on each page
   * the pool opens, before its first job (a page whose preparation fails is closed like a failed job's).
   *
   * @returns what `job` resolves to
   * @throws PoolBusyError when `poolSize` jobs run and `queueMax` wait; RenderTimeoutError after `timeoutMs`;
   *   PoolClosedError after close(); the job's own error otherwise (a lost browser is retried once first).
   */
  async run<T>(job: (page: Page) => Promise<T>, prepare?: (page: Page) => Promise<void>): Promise<T> {
    await this.acquire();
    try {
      try {
        return await this.attempt(job, prepare);
      } catch (err) {
        if (this.closed || !(err instanceof BrowserGoneError)) throw err;
        this.opts.logger.warn(
          { err: err.cause },
          'pdf: browser lost during a job; retrying once on a new browser',
        );
        return await this.attempt(job, prepare);
      }
    } finally {
      this.release();
    }
  }

  /** The operating-system process id of the current browser, or null when none runs (tests kill it). */
  browserPid(): number | null {
    return this.browser?.connected ? (this.browser.process()?.pid ?? null) : null;
  }

  /** Current counters. */
  stats(): BrowserPoolStats {
    return {
      active: this.active,
      queued: this.waiting.length,
      launches: this.launches,
      completed: this.completed,
      completedSeconds: this.completedMs / 1000,
      pagesOpened: this.pagesOpened,
    };
  }

  /** Launches the browser now instead of on the first job (the bench warms up with it). */
  async warmUp(): Promise<void> {
    await this.getBrowser();
  }

  /**
   * Refuses new jobs, fails the queued ones with PoolClosedError and closes the browser (killing it if it does
   * not close within 5 s). Jobs already running fail when their page goes. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.idle = [];
    for (const wake of this.waiting.splice(0)) wake(new PoolClosedError('the PDF renderer is shutting down'));
    const browser = this.browser ?? (await this.launching?.catch(() => null)) ?? null;
    this.browser = null;
    if (!browser) return;
    const proc = browser.process();
    try {
      await Promise.race([
        browser.close(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('close timed out')), 5000).unref()),
      ]);
    } catch (err) {
      this.opts.logger.warn({ err }, 'pdf: browser did not close; killing it');
      proc?.kill('SIGKILL');
    }
  }

  private async acquire(): Promise<void> {
    if (this.closed) throw new PoolClosedError('the PDF renderer is shutting down');
    if (this.active < this.opts.poolSize) {
      this.active++;
      return;
    }
    if (this.waiting.length >= this.opts.queueMax) {
      throw new PoolBusyError(
        `PDF queue full (${this.opts.poolSize} rendering, ${this.waiting.length} waiting)`,
      );
    }
    // release() hands its slot over directly (active stays the same), so no one can overtake the queue.
    await new Promise<void>((resolve, reject) => {
      this.waiting.push((err) => (err ? reject(err) : resolve()));
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** An idle page of `browser`, or a new one readied by `prepare` (closed again when that fails). */
  private async pageOf(
    browser: Browser,
    prepare: ((page: Page) => Promise<void>) | undefined,
  ): Promise<Page> {
    for (let page = this.idle.pop(); page; page = this.idle.pop()) {
      if (page.browser() === browser && !page.isClosed()) return page;
    }
    this.pagesOpened++;
    const page = await browser.newPage();
    try {
      await prepare?.(page);
    } catch (err) {
      void page.close().catch(() => undefined);
      throw err;
    }
    return page;
  }

  /** Keeps `page` for the next job when its browser is still the current one and fewer than poolSize are idle. */
  private park(page: Page, browser: Browser | null): void {
    if (
      !this.closed &&
      browser &&
      this.browser === browser &&
      !page.isClosed() &&
      this.idle.length < this.opts.poolSize
    ) {
      this.idle.push(page);
    } else {
      void page.close().catch(() => undefined);
    }
  }

  /** One try: a page, the job, within the timeout; the page is kept after a success and closed after a failure. */
  private async attempt<T>(
    job: (page: Page) => Promise<T>,
    prepare: ((page: Page) => Promise<void>) | undefined,
  ): Promise<T> {
    let page: Page | null = null;
    let used: Browser | null = null;
    let succeeded = false;
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RenderTimeoutError(`PDF job exceeded ${this.opts.timeoutMs} ms`)),
        this.opts.timeoutMs,
      );
    });
    const work = (async () => {
      used = await this.getBrowser();
      page = await this.pageOf(used, prepare);
      return job(page);
    })();
    // The loser of the race must not surface as an unhandled rejection.
    work.catch(() => undefined);
    try {
      const result = await Promise.race([work, timeout]);
      this.completed++;
      this.completedMs += performance.now() - started;
      this.timeoutsInARow = 0;
      succeeded = true;
      return result;
    } catch (err) {
      if (err instanceof RenderTimeoutError && ++this.timeoutsInARow >= HUNG_AFTER_TIMEOUTS) {
        this.opts.logger.warn({ timeouts: this.timeoutsInARow }, 'pdf: browser looks hung; killing it');
        this.timeoutsInARow = 0;
        const hung = this.browser;
        this.forget(hung);
        hung?.process()?.kill('SIGKILL');
      }
      if (!(err instanceof RenderTimeoutError) && isBrowserGone(err, used)) {
        this.forget(used);
        throw new BrowserGoneError('the browser went away during the job', { cause: err });
      }
      throw err;
    } finally {
      clearTimeout(timer);
      if (succeeded) {
        this.park(page!, used);
      } else {
        // A page still opening when the timeout fired is closed once it exists.
        void work.finally(() => (page as Page | null)?.close().catch(() => undefined)).catch(() => undefined);
      }
    }
  }

  /** The connected browser, launching one (once, shared by concurrent callers) when there is none. */
  private async getBrowser(): Promise<Browser> {
    if (this.closed) throw new PoolClosedError('the PDF renderer is shutting down');
    if (this.browser?.connected) return this.browser;
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const started = Date.now();
    const browser = await launchChromium(this.opts.chromiumPath, Math.max(this.opts.timeoutMs * 2, 30_000));
    this.launches++;
    browser.on('disconnected', () => {
      if (this.browser === browser) {
        this.browser = null;
        if (!this.closed) this.opts.logger.warn('pdf: browser disconnected; the next job relaunches it');
      }
    });
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new PoolClosedError('the PDF renderer is shutting down');
    }
    this.browser = browser;
    this.opts.logger.info(
      { pid: browser.process()?.pid, ms: Date.now() - started, launches: this.launches },
      'pdf: browser launched',
    );
    return browser;
  }

  private forget(browser: Browser | null): void {
    if (browser && this.browser === browser) this.browser = null;
    this.idle = this.idle.filter((page) => page.browser() !== browser);
    if (browser?.connected) void browser.close().catch(() => undefined);
  }
}
