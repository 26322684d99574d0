/**
 * Process capture (decision 037): the user's short script of steps — visit a URL, click (a CSS selector or a
 * link's text), type text into a field, scroll, wait, take a screenshot — replayed in a capture session
 * (web-capture.ts: a fresh context behind the job's egress proxy, every exchange into the WARC) while the page is
 * recorded as a video (puppeteer's screencast, encoded by Debian's ffmpeg to WebM, then remuxed so it has a
 * duration). After each step a screenshot and a log line (what was done, when, on which URL, and whether it
 * worked); a failing step stops the script, and what was recorded so far is still packaged. The WACZ holds `capture/process.webm`, `capture/step-<n>.png` and the log in
 * `capture/capture.json`. Times in milliseconds.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import { PROCESS_ACTION_WORDS, type ProcessStep } from '../../contract/capture.ts';
import { openCaptureSession, type CaptureOptions } from './web-capture.ts';
import { navigationFailure, stepFailure } from './failure-reason.ts';

/** One step as the log records it. */
export interface StepLog {
  n: number;
  action: ProcessStep['action'];
  /** What the step was given (URL, selector or text, pixels, seconds), for the log and the certificate. */
  detail: string;
  /** ISO 8601, when the step ended. */
  at: string;
  /** The page's URL after the step. */
  url: string;
  ok: boolean;
  /** Why the step failed, in Chinese. */
  error: string | null;
  /** Its screenshot inside the WACZ. */
  screenshot: string | null;
}

/** The result of a process capture. */
export interface ProcessCaptureResult {
  wacz: string;
  sha256: string;
  bytes: number;
  steps: StepLog[];
  /** Path inside the WACZ of the video, null when none was recorded. */
  video: string | null;
}

const execFileP = promisify(execFile);

/** Longest wait step (seconds). */
const MAX_WAIT_SECONDS = 30;

/** Clicks `target`: a CSS selector when one matches, else the element whose text is `target`. */
async function click(page: Page, target: string, timeout: number): Promise<void> {
  const bySelector = await page.$(target).catch(() => null);
  if (bySelector) {
    await Promise.all([
      page.waitForNetworkIdle({ idleTime: 300, timeout }).catch(() => undefined),
      bySelector.click(),
    ]);
    return;
  }
  const escaped = target.replace(/[()\\]/g, (c) => `\\${c}`);
  await page.locator(`::-p-text(${escaped})`).setTimeout(timeout).click();
  await page.waitForNetworkIdle({ idleTime: 300, timeout }).catch(() => undefined);
}

/** What the log says of text typed into a password field: its length only (characters, not bytes). */
export function maskedText(text: string): string {
  return `（密码，${[...text].length} 个字符，已隐去）`;
}

/** Does step `s` on `page`. @returns the log detail. @throws what puppeteer throws when the step cannot be done */
async function doStep(page: Page, s: ProcessStep, timeout: number): Promise<string> {
  switch (s.action) {
    case 'visit':
      await page.goto(s.url, { waitUntil: 'networkidle2', timeout });
      return s.url;
    case 'click':
      await click(page, s.target, timeout);
      return s.target;
    case 'type': {
      await page.locator(s.target).setTimeout(timeout).fill(s.text);
      // The log line goes onto the certificate, which anyone with its number reads: a password field's text does
      // not (the browser masks it in the video and the screenshots too).
      const secret = await page
        .$eval(s.target, (el) => el instanceof HTMLInputElement && el.type === 'password')
        .catch(() => false);
      return secret ? `${s.target}：${maskedText(s.text)}` : `${s.target}：${s.text}`;
    }
    case 'scroll':
      await page.evaluate((y) => window.scrollBy(0, y), s.pixels);
      return `${s.pixels} 像素`;
    case 'wait':
      await new Promise((r) => setTimeout(r, Math.min(s.seconds, MAX_WAIT_SECONDS) * 1000));
      return `${s.seconds} 秒`;
    case 'screenshot':
      return '截图';
  }
}

/**
 * Replays `steps` in a capture session of `browser`, recording the video, a screenshot and log line per step and
 * the WARC, and packages them as a WACZ. @throws when the work directory or the package cannot be written
 */
export async function captureProcess(
  browser: Browser,
  steps: readonly ProcessStep[],
  opts: CaptureOptions,
): Promise<ProcessCaptureResult> {
  const now = opts.now ?? (() => new Date());
  const session = await openCaptureSession(browser, opts);
  const { page, files } = session;
  const log: StepLog[] = [];
  const recorded = path.join(opts.workDir, 'recording.webm');
  const videoFile = path.join(opts.workDir, 'process.webm');
  let video: string | null = null;
  try {
    const recorder = await page.screencast({ path: recorded as `${string}.webm` });
    try {
      for (const [i, s] of steps.entries()) {
        const n = i + 1;
        let detail = '';
        let error: string | null = null;
        if (opts.signal?.aborted) break;
        try {
          detail = await doStep(page, s, opts.timeoutMs);
        } catch (err) {
          const reason =
            s.action === 'visit'
              ? navigationFailure(err, s.url, session.proxy.blocked, opts.timeoutMs)
              : stepFailure(err, opts.timeoutMs);
          error = `第 ${n} 步（${PROCESS_ACTION_WORDS[s.action]}）无法完成：${reason}`;
        }
        const shot = path.join(opts.workDir, `step-${n}.png`);
        const saved = await page
          .screenshot({ path: shot, type: 'png' })
          .then(() => true)
          .catch(() => false);
        if (saved) files.push({ path: `capture/step-${n}.png`, source: shot });
        log.push({
          n,
          action: s.action,
          detail,
          at: now().toISOString(),
          url: page.url(),
          ok: error === null,
          error,
          screenshot: saved ? `capture/step-${n}.png` : null,
        });
        if (error) break;
      }
    } finally {
      await recorder.stop();
    }
    opts.signal?.throwIfAborted();
    // the recording is written as a stream (no duration, no cues); a copy remuxed to a file has both, so players
    // show its length and can seek
    await execFileP('ffmpeg', ['-v', 'error', '-y', '-i', recorded, '-c', 'copy', videoFile], {
      signal: opts.signal,
    });
    files.push({ path: 'capture/process.webm', source: videoFile });
    video = 'capture/process.webm';
  } finally {
    await session.close();
  }
  const pages = log
    .filter((l) => l.action === 'visit' && l.ok)
    .map((l) => ({ id: `step-${l.n}`, url: l.url, ts: l.at, title: l.detail }));
  const { wacz, sha256, bytes } = await session.finish({ steps: log, video }, pages);
  return { wacz, sha256, bytes, steps: log, video };
}
