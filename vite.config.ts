import { reactRouter } from '@react-router/dev/vite';
import postcssCustomProperties from 'postcss-custom-properties';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: process.env.VITEST ? [] : [reactRouter()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  build: { sourcemap: false },
  // Old engines (IE11, Android 4.x WebViews; issue 16 point 4) ignore var(): every declaration using a custom
  // property is preceded by the same declaration with the value computed from :root, which they take instead.
  css: { postcss: { plugins: [postcssCustomProperties({ preserve: true })] } },
});
