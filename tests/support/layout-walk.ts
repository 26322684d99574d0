/**
 * The page walk of tests/e2e/layout-walk.spec.ts (decision 049): opens each page once per width and reports, one
 * line each, what tests/support/layout-check.ts finds in the laid-out page, axe's serious and critical violations
 * included. A page with problems is attached to the report as a full-page screenshot.
 *
 * axe and the layout checks run as scripts in the page. Without JavaScript the pages are opened, as in
 * accessibility.spec.ts, in a second context of the same browser with JavaScript on but every script file refused
 * and the first context's cookies: the server-rendered page no script has touched, which is what a browser without
 * JavaScript shows. With JavaScript the checks wait for hydration (the root marks `html[data-enhanced]`).
 */
import { createRequire } from 'node:module';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { LAYOUT_LIMITS, pageProblems } from './layout-check.ts';

/** The widths every page is laid out at: a phone (375 CSS px, as phone.spec.ts) and a desktop. */
export const WIDTHS = [375, 1280] as const;

/** axe-core as @axe-core/playwright loads it, added to every document of the walk before its own scripts. */
const AXE_SCRIPT = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
  'axe-core/axe.min.js',
);

/** The pages axe is added to already (a test may walk several times on its own page). */
const withAxe = new WeakSet<Page>();

/** A page of the walk: its path, and the HTTP status it answers with when that is not 200. */
export type WalkStop = string | { path: string; status: number };

/** The context and page the checks run in for the test's project (see the module comment). */
async function checkingPage(
  page: Page,
  info: TestInfo,
): Promise<{ target: Page; scratch: BrowserContext | null }> {
  if (info.project.use.javaScriptEnabled !== false) return { target: page, scratch: null };
  const scratch = await page.context().browser()!.newContext({
    javaScriptEnabled: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  await scratch.addCookies(await page.context().cookies());
  await scratch.route(/\.m?js(\?.*)?$/, (route) => route.abort());
  return { target: await scratch.newPage(), scratch };
}

/** Opens `path` and returns what is wrong with it, without the prefix. */
async function checkOne(target: Page, stop: WalkStop, info: TestInfo, js: boolean): Promise<string[]> {
  const path = typeof stop === 'string' ? stop : stop.path;
  const status = typeof stop === 'string' ? 200 : stop.status;
  const res = await target.goto(new URL(path, info.project.use.baseURL).href);
  const found: string[] = [];
  if (res?.status() !== status) found.push(`answered HTTP ${res?.status() ?? '?'} (expected ${status})`);
  const landed = new URL(target.url());
  if (landed.origin !== new URL(String(info.project.use.baseURL)).origin)
    found.push(`left the site for ${landed.origin}${landed.pathname}`);
  else if (landed.pathname.endsWith('/login') && !path.endsWith('/login'))
    found.push(`was sent to ${landed.pathname}${landed.search}`);
  // With JavaScript, laid out as hydrated: the root marks html[data-enhanced]; the bare print and console pages load
  // no script, and an error page renders no root component to mark it (there, the network falling quiet will do).
  if (js && status !== 200) await target.waitForLoadState('networkidle');
  else if (js)
    await target.waitForFunction(
      () =>
        document.documentElement.hasAttribute('data-enhanced') ||
        !document.querySelector('script[type=module]'),
      undefined,
      { timeout: 10_000 },
    );
  found.push(...(await target.evaluate(pageProblems, LAYOUT_LIMITS)));
  return found;
}

/**
 * Lays out each of `stops` at each of {@link WIDTHS} (one load per page and width) in the test's project and returns
 * every problem as `<path> @ <width>px: <problem>`; empty when every page holds.
 */
export async function walkPages(page: Page, info: TestInfo, stops: WalkStop[]): Promise<string[]> {
  const { target, scratch } = await checkingPage(page, info);
  const js = scratch === null;
  if (!withAxe.has(target)) await target.addInitScript({ path: AXE_SCRIPT });
  withAxe.add(target);
  const problems: string[] = [];
  // A page that sends the browser on to another site (the Alipay handoff) stays put: a navigation answered 204
  // leaves the document where it is.
  const origin = new URL(String(info.project.use.baseURL)).origin;
  const elsewhere = (url: URL) => url.origin !== origin;
  await target.route(elsewhere, (route) =>
    route.request().isNavigationRequest() ? route.fulfill({ status: 204 }) : route.continue(),
  );
  try {
    for (const width of WIDTHS) {
      await target.setViewportSize({ width, height: 800 });
      for (const stop of stops) {
        const path = typeof stop === 'string' ? stop : stop.path;
        const found = await checkOne(target, stop, info, js);
        for (const problem of found) problems.push(`${path} @ ${width}px: ${problem}`);
        // the page as it failed, for a human look (the report's attachments)
        if (found.length > 0)
          await info.attach(`${path.slice(0, 60).replace(/\W+/g, '_')}@${width}.png`, {
            body: await target.screenshot({ fullPage: true }),
            contentType: 'image/png',
          });
      }
    }
  } finally {
    await target.unroute(elsewhere);
    await scratch?.close();
  }
  return problems;
}
