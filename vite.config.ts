import { reactRouter } from '@react-router/dev/vite';
import postcssCustomProperties from 'postcss-custom-properties';
import { defineConfig, type Plugin } from 'vite';

/**
 * What the browser build imports instead of React (docs/decisions/031): Preact's React-compatible layer. React DOM
 * alone is 59 KB brotli, over half the 100 KB first-load budget; preact/compat is about 5 KB.
 */
const PREACT_FOR_REACT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
};

/**
 * Resolves React's modules to preact/compat in the production client build only. The server keeps rendering with
 * React (react-dom/server); Preact hydrates that HTML (it matches elements by tag and does not diff attributes while
 * hydrating). `npm run dev` keeps React in the browser too (its dependency optimizer does not run this hook).
 */
function preactInTheBrowser(): Plugin {
  return {
    name: 'cunzheng:preact-in-the-browser',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    // app/shell/document-root.tsx reads this (Preact renders into <html>, not into the document)
    configEnvironment: (name) =>
      name === 'client' ? { define: { 'import.meta.env.BROWSER_PREACT': 'true' } } : undefined,
    async resolveId(source, importer, options) {
      const target = PREACT_FOR_REACT[source];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

export default defineConfig({
  plugins: process.env.VITEST ? [] : [preactInTheBrowser(), reactRouter()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  build: { sourcemap: false },
  // BASE_PATH is chosen at run time (docs/decisions/047-base-path.md): the browser's files refer to each other
  // relatively (fonts from CSS, assets from scripts), so they work under any prefix; the server build's manifest is
  // prefixed by the gateway (server/http/base-path.ts).
  experimental: {
    renderBuiltUrl: (_file, { hostType, ssr }) =>
      !ssr && (hostType === 'css' || hostType === 'js') ? { relative: true } : undefined,
  },
  // Old engines (IE11, Android 4.x WebViews; decision 030) ignore var(): every declaration using a custom
  // property is preceded by the same declaration with the value computed from :root, which they take instead.
  css: { postcss: { plugins: [postcssCustomProperties({ preserve: true })] } },
});
