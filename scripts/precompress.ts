/**
 * Precompresses the built client assets (`build/client/assets/*.{js,css,svg,json}`, hashed and immutable) next to
 * themselves as `.br` (brotli quality 11, text mode) and `.gz` (gzip level 9), so that @fastify/static
 * (`preCompressed`, server/app.ts) sends the smallest form a browser accepts without compressing per request at the
 * on-the-fly quality (@fastify/compress: brotli 4). A compressed copy that is not smaller is not written. Part of
 * `npm run build` (the first-load budget counts what the browser transfers; decision 031).
 * @throws when build/client/assets is missing (run `react-router build` first)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const assets = path.resolve(import.meta.dirname, '../build/client/assets');
let files = 0;
let raw = 0;
let br = 0;
for (const name of readdirSync(assets)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const bytes = readFileSync(path.join(assets, name));
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  if (brotli.length < bytes.length) writeFileSync(path.join(assets, `${name}.br`), brotli);
  if (gzip.length < bytes.length) writeFileSync(path.join(assets, `${name}.gz`), gzip);
  files += 1;
  raw += bytes.length;
  br += Math.min(brotli.length, bytes.length);
}
process.stdout.write(
  `precompressed ${files} assets: ${(raw / 1024).toFixed(1)} KB → ${(br / 1024).toFixed(1)} KB brotli\n`,
);
