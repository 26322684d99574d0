import type { Config } from '@react-router/dev/config';

/**
 * The bench's reference (decision 032): a bare React Router 7 page in framework mode, built as the product is (SSR
 * on), into build/bench-reference (gitignored). Only `npm run bench` builds and serves it.
 */
export default {
  appDirectory: 'app',
  buildDirectory: '../../build/bench-reference',
  ssr: true,
} satisfies Config;
