/**
 * Runs inside the image (scripts/test-container.sh mounts it into a read-only, non-root container of the image): the
 * image's Chromium and ffmpeg do what captures need. Chinese text is set in a system CJK font (web pages a capture
 * screenshots bring no web font of ours), and a screencast is encoded by ffmpeg to VP9 WebM and remuxed with
 * `-c copy`, the way server/capture/process-capture.ts records a process capture. Exits non-zero on a failure.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { launchChromium } from '../../server/pdf/browser-pool.ts';
import { loadPdfConfig } from '../../server/pdf/config.ts';
import { processEnvironment } from '../../lib/config-schema.ts';

const execFileP = promisify(execFile);
// CHROMIUM_PATH as the gateway reads it (server/pdf/config.ts), from the container's environment
const chromium = loadPdfConfig(processEnvironment()).chromiumPath;
const dir = await mkdtemp(path.join(os.tmpdir(), 'media-check-'));
const browser = await launchChromium(chromium);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 640, height: 360 });
  await page.setContent('<p id="t" style="font: 32px sans-serif">电子数据保全证书</p>');

  // Which platform fonts Blink used for the text: a CJK one, with every glyph.
  const cdp = await page.createCDPSession();
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#t' });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  process.stdout.write(`fonts: ${fonts.map((f) => `${f.familyName} (${f.glyphCount})`).join(', ')}\n`);
  const cjk = fonts.filter((f) =>
    /WenQuanYi|Noto Sans CJK|Noto Sans SC|Droid Sans Fallback/i.test(f.familyName),
  );
  if (cjk.reduce((n, f) => n + f.glyphCount, 0) !== 8)
    throw new Error('the Chinese text is not set in a CJK font');

  // A screencast through ffmpeg, then the remux that process capture does.
  const recorded = path.join(dir, 'recording.webm');
  const recorder = await page.screencast({ path: recorded as `${string}.webm` });
  for (let i = 0; i < 6; i++) {
    await page.evaluate((n) => {
      document.querySelector('#t')!.textContent = `第 ${n} 步`;
    }, i + 1);
    await new Promise((r) => setTimeout(r, 150));
  }
  await recorder.stop();
  const video = path.join(dir, 'process.webm');
  await execFileP('ffmpeg', ['-v', 'error', '-y', '-i', recorded, '-c', 'copy', video]);
  const bytes = await readFile(video);
  // EBML magic, and a WebM doctype
  if (bytes.subarray(0, 4).toString('hex') !== '1a45dfa3' || !bytes.subarray(0, 64).includes('webm')) {
    throw new Error('ffmpeg did not write a WebM file');
  }
  if (bytes.length < 1000) throw new Error(`the WebM file is too small (${bytes.length} bytes)`);
  process.stdout.write(`screencast: ${bytes.length} bytes of WebM\n`);
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
