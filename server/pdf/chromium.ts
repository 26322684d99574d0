/**
 * The gateway's headless Chromium (decision 007): its flags, its launch over a pipe (shared by the PDF pool,
 * server/pdf/browser-pool.ts, and the capture worker, server/capture/worker.ts), and how a job tells that the browser
 * went away under it.
 */
import puppeteer, { type Browser } from 'puppeteer-core';

/** Chromium flags: no sandbox (containers run it unprivileged), no GPU, /tmp instead of a small /dev/shm, quiet. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--headless=new',
];

/**
 * Launches the gateway's headless Chromium at `chromiumPath` (the PDF pool's and the capture worker's): DevTools over
 * a pipe, not a port — when the gateway dies (even by SIGKILL) the pipe closes and Chromium exits with it instead of
 * living on as an orphan, and nothing else on the machine can connect to it; the gateway's own shutdown closes it
 * (puppeteer still kills it on exit). `protocolTimeout` in milliseconds.
 */
export function launchChromium(chromiumPath: string, protocolTimeout?: number): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    pipe: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...(protocolTimeout ? { protocolTimeout } : {}),
  });
}

export /** True when `err` says the page or browser went away under the job (a crash, a kill, a disconnect). */
function isBrowserGone(err: unknown, browser: Browser | null): boolean {
  if (browser && !browser.connected) return true;
  const text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /TargetCloseError|Target closed|Session closed|Connection closed|detached Frame|Protocol error.*(closed|detached)|browser has disconnected|Navigating frame was detached/i.test(
    text,
  );
}

/** A job failed because its browser crashed or disconnected (`cause` is the job's error); retried once. */
export class BrowserGoneError extends Error {
  override name = 'BrowserGoneError';
}

/** After this many timeouts in a row the browser is presumed hung and is killed (the next job relaunches it). */
export const HUNG_AFTER_TIMEOUTS = 2;
