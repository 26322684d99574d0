/**
 * Builds the script of the saved offline verifier (decision 036): app/verify/offline/main.ts and
 * everything it imports (zip.js, @noble, pkijs, the seven steps) as one minified IIFE at
 * `build-offline/verifier.js` (apart from build/, which `react-router build` empties), which the /verify/offline route inlines into `cunzheng-verify.html` (imported with
 * Vite's `?raw`, so the server bundle carries it). Part of `npm run build`, before `react-router build`.
 * Target ES2020: the verifier needs BigInt (Ed25519) and WebCrypto anyway.
 * @throws when the bundle does not build
 */
import path from 'node:path';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    outDir: path.join(root, 'build-offline'),
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    copyPublicDir: false,
    lib: {
      entry: path.join(root, 'app/verify/offline/main.ts'),
      formats: ['iife'],
      name: 'cunzhengOfflineVerifier',
      fileName: () => 'verifier.js',
    },
  },
});
