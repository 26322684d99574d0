import type { Config } from '@react-router/dev/config';

/** React Router framework mode: server-side rendering on, app code under app/. */
export default {
  appDirectory: 'app',
  ssr: true,
  // Opt in to the v8 behaviours that do not change our code; v8_middleware stays off (docs/decisions/003).
  future: {
    v8_middleware: false,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
