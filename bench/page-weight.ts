/**
 * Page weight benchmark (`npm run bench:page-weight`; decision 031): what a browser actually transfers on a
 * first visit (empty cache) of each main page, measured in Chromium from the wire — response headers plus the
 * encoded body, as the production server sends them (precompressed brotli assets, per-request brotli for pages) —
 * once with JavaScript and once without. Budgets: first-load JavaScript ≤ 100 KB on every page; the /address
 * document ≤ 30 KB. Each row says PASS or FAIL, and the run exits 1 when any page is over budget.
 * Starts the whole server (production build, sandbox providers, the demo account) in a fresh DATA_DIR; run
 * `npm run build` first. Also fails when a route outside the operators' console loads zod on its first load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import type { ServerBuild } from 'react-router';
import { login, startWhole, uploadEvidence } from '../tests/support/pdf-whole.ts';
import { DEMO_MOBILE, DEMO_PASSWORD } from '../tests/support/integration.ts';
import { chromiumPath } from './support/environment.ts';

/** First-load JavaScript budget per page, bytes on the wire (headers included). */
export const JS_BUDGET_BYTES = 100 * 1024;
/** Budgets of single documents (HTML), bytes on the wire (headers included). */
export const DOCUMENT_BUDGETS: Record<string, number> = { '/address': 30 * 1024 };

interface Weight {
  document: number;
  js: number;
  css: number;
  other: number;
  requests: number;
}

/** Loads `url` in a fresh page of `context` and sums the transferred bytes by resource type. */
async function weigh(context: BrowserContext, url: string): Promise<Weight> {
  const page = await context.newPage();
  const w: Weight = { document: 0, js: 0, css: 0, other: 0, requests: 0 };
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((s) => {
        const bytes = s.responseHeadersSize + s.responseBodySize;
        const type = request.resourceType();
        w.requests += 1;
        if (type === 'document') w.document += bytes;
        else if (type === 'script') w.js += bytes;
        else if (type === 'stylesheet') w.css += bytes;
        else w.other += bytes;
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await page.close();
  return w;
}

/** A browser chunk that holds zod's own code (its core's type tag or its issue codes). */
const ZOD_CODE = /\$ZodType|"invalid_type"/;

/**
 * The routes of the production build whose first load (the route module and its static imports, as the build's
 * manifest lists them) carries zod: decision 031's rule that a page loads its schemas only on a form's first focus,
 * checked over every route, not just the pages weighed below. The operators' console (`ops/…`) is exempt: a staff
 * tool, outside the budget.
 * @returns `route id: chunk` for each offending route (empty when none)
 */
async function routesLoadingZod(): Promise<string[]> {
  const buildDir = path.resolve(import.meta.dirname, '../build');
  const server = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as ServerBuild;
  const hasZod = new Map<string, boolean>();
  const carriesZod = (asset: string) => {
    let known = hasZod.get(asset);
    if (known === undefined) {
      known = ZOD_CODE.test(readFileSync(path.join(buildDir, 'client', asset), 'utf8'));
      hasZod.set(asset, known);
    }
    return known;
  };
  const out: string[] = [];
  for (const route of Object.values(server.assets.routes)) {
    if (!route || route.id.startsWith('ops/')) continue;
    const zod = [route.module, ...(route.imports ?? [])].find(carriesZod);
    if (zod) out.push(`${route.id}: ${zod}`);
  }
  return out;
}

async function main(): Promise<void> {
  const zodRoutes = await routesLoadingZod();
  const whole = await startWhole({});
  let browser: Browser | null = null;
  let over = 0;
  try {
    const token = await login(whole.base);
    const saved = await uploadEvidence(whole.base, token, {
      title: '页面重量测试',
      fileName: 'weight.txt',
      bytes: new TextEncoder().encode('page weight\n'),
    });
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
    // The demo account's session, made through the login form once and reused by every context.
    const setup = await browser.newContext({ baseURL: whole.base });
    const loginPage = await setup.newPage();
    await loginPage.goto('/login');
    await loginPage.getByLabel('手机号').fill(DEMO_MOBILE);
    await loginPage.getByLabel('密码').fill(DEMO_PASSWORD);
    await loginPage.getByRole('button', { name: '登录', exact: true }).click();
    await loginPage.waitForURL((u) => !u.pathname.startsWith('/login'));
    const state = await setup.storageState();
    await setup.close();

    const pages = [
      '/',
      '/privacy',
      '/login',
      '/register',
      `/attestation/${saved.baoquan}`,
      '/attestation-list/file',
      '/newAccessCard',
      '/newAccessHashCard',
      '/newProperty',
      '/queryAuthentication/certificate',
      '/address',
      '/personage-kyc',
      '/organization-kyc',
      '/newWeb',
      '/newProcess',
      '/evidences-all/web',
      '/notifications',
      '/buyCredits',
      '/redeem',
      '/orders',
      '/invoice',
      '/orders/makeOutInvoice',
      '/setting',
    ];
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const print = (line: string) => process.stdout.write(`${line}\n`);
    print(
      `budgets: first-load JS ≤ ${kb(JS_BUDGET_BYTES)}; /address document ≤ ${kb(DOCUMENT_BUDGETS['/address']!)}`,
    );
    print('bytes on the wire (headers + encoded body), empty cache');
    print('| page | JS on: JS | JS on: total | JS off: HTML | JS off: CSS | JS off: total | verdict |');
    print('|---|---|---|---|---|---|---|');
    // The login and register pages as a visitor sees them (the demo account's session would be redirected away).
    const anonymous = new Set(['/login', '/register']);
    for (const path of pages) {
      const session = anonymous.has(path) ? {} : { storageState: state };
      const on = await browser.newContext({ baseURL: whole.base, ...session });
      const off = await browser.newContext({ baseURL: whole.base, ...session, javaScriptEnabled: false });
      const withJs = await weigh(on, path);
      const noJs = await weigh(off, path);
      await on.close();
      await off.close();
      const problems: string[] = [];
      if (withJs.js > JS_BUDGET_BYTES) problems.push(`JS ${kb(withJs.js)} > ${kb(JS_BUDGET_BYTES)}`);
      const docBudget = DOCUMENT_BUDGETS[path];
      if (docBudget !== undefined && noJs.document > docBudget)
        problems.push(`HTML ${kb(noJs.document)} > ${kb(docBudget)}`);
      if (problems.length) over += 1;
      const total = (w: Weight) => w.document + w.js + w.css + w.other;
      const label = path.replace(saved.baoquan, '{id}');
      print(
        `| ${label} | ${kb(withJs.js)} | ${kb(total(withJs))} | ${kb(noJs.document)} | ${kb(noJs.css)} | ${kb(total(noJs))} | ${problems.length ? `FAIL: ${problems.join('; ')}` : 'PASS'} |`,
      );
    }
    print(over ? `${over} page(s) over budget` : 'every page within budget');
    print(
      zodRoutes.length
        ? `routes whose first load carries zod (decision 031):\n${zodRoutes.map((r) => `  ${r}`).join('\n')}`
        : "no route outside the operators' console loads zod on its first load",
    );
    over += zodRoutes.length;
  } finally {
    await browser?.close();
    await whole.stop();
  }
  process.exitCode = over ? 1 : 0;
}

await main();
