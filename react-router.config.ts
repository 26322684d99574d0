import type { Config } from '@react-router/dev/config';

/** React Router framework mode: server-side rendering on, app code under app/. */
export default {
  appDirectory: 'app',
  ssr: true,
  // Opt in to the v8 behaviours that do not change our code; v8_middleware stays off (docs/decisions/003).
  // v8_passThroughRequests stays off: with it, `request.url` of a data request keeps React Router's `.data` suffix
  // and `_routes` parameter, and every `redirect=`/X-URL-PATH built from it pointed at the raw data URL
  // (docs/decisions/014; test "a link followed in the page …" in tests/e2e/guard-and-validation.spec.ts).
  future: {
    v8_middleware: false,
    v8_passThroughRequests: false,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
