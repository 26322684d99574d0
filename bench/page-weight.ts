/**
 * Page weight benchmark (`npm run bench:page-weight`): for the main pages, the JavaScript and CSS a browser with
 * JavaScript loads (the entry, the root route and the page's route module with every chunk they import, as listed
 * in the production build's React Router manifest), in bytes raw and brotli-compressed (what @fastify/compress
 * sends to a browser that accepts it), and the site stylesheet (app/styles.css, linked by the root route; the
 * print stylesheet of the certificate PDF is not counted). Without JavaScript a page loads only the stylesheet.
 * Run `npm run build` first.
 *
 * Figures, not pass/fail: it exits non-zero only when the build or a listed route is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

interface ManifestEntry {
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry>;
}

const CLIENT = path.resolve('build/client');
const PAGES: [string, string][] = [
  ['/ (home)', 'home/home'],
  ['/privacy', 'legal/legal-page'],
  ['/login', 'account/login'],
  ['/attestation/{id}', 'certificate/attestation'],
  ['/attestation-list/file', 'evidence/list-file'],
  ['/newAccessCard', 'evidence/new-file'],
  ['/newAccessHashCard', 'evidence/new-hash'],
  ['/queryAuthentication/certificate', 'verify/certificate'],
  ['/address', 'address/address'],
  ['/personage-kyc', 'kyc/personal'],
  ['/buyCredits', 'billing/buy-credits'],
  ['/orders', 'billing/orders'],
  ['/invoice', 'invoice/invoice'],
  ['/invoice/details', 'invoice/details'],
  ['/orders/makeOutInvoice', 'invoice/make-out'],
  ['/weChat/{orderNo}', 'billing/wechat'],
  ['/ops/kyc', 'ops/kyc/queue'],
];

function readManifest(): Manifest {
  const assets = path.join(CLIENT, 'assets');
  const file = readdirSync(assets).find((f) => f.startsWith('manifest-') && f.endsWith('.js'));
  if (!file) throw new Error('no build/client/assets/manifest-*.js: run npm run build first');
  const src = readFileSync(path.join(assets, file), 'utf8');
  return JSON.parse(src.slice(src.indexOf('{'), src.lastIndexOf('}') + 1)) as Manifest;
}

const sizeCache = new Map<string, { raw: number; br: number }>();
function sizeOf(asset: string): { raw: number; br: number } {
  let size = sizeCache.get(asset);
  if (!size) {
    const bytes = readFileSync(path.join(CLIENT, asset));
    size = { raw: bytes.length, br: brotliCompressSync(bytes).length };
    sizeCache.set(asset, size);
  }
  return size;
}

function total(files: Set<string>): { raw: number; br: number } {
  let raw = 0;
  let br = 0;
  for (const f of files) {
    const s = sizeOf(f);
    raw += s.raw;
    br += s.br;
  }
  return { raw, br };
}

const manifest = readManifest();
const stylesheet = readdirSync(path.join(CLIENT, 'assets')).find((f) => /^styles-.*\.css$/.test(f));
if (!stylesheet) throw new Error('no build/client/assets/styles-*.css');
const siteCss = sizeOf(`/assets/${stylesheet}`);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const print = (line: string) => process.stdout.write(`${line}\n`);
print(
  `site stylesheet: ${kb(siteCss.raw)} raw, ${kb(siteCss.br)} brotli (every page, with or without JavaScript)`,
);
print('| page | JS raw | JS brotli | largest chunk |');
print('|---|---|---|---|');
for (const [label, id] of PAGES) {
  const route = manifest.routes[id];
  const root = manifest.routes.root;
  if (!route || !root) throw new Error(`route ${id} is not in the manifest`);
  const js = new Set<string>();
  for (const e of [manifest.entry, root, route]) {
    js.add(e.module);
    for (const i of e.imports ?? []) js.add(i);
  }
  const largest = [...js].sort((a, b) => sizeOf(b).raw - sizeOf(a).raw)[0]!;
  const j = total(js);
  print(`| ${label} | ${kb(j.raw)} | ${kb(j.br)} | ${path.basename(largest)} ${kb(sizeOf(largest).raw)} |`);
}
