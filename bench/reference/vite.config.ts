import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

/** Vite config of the bench's bare reference page (bench/reference/react-router.config.ts). */
export default defineConfig({ plugins: [reactRouter()], build: { sourcemap: false, emptyOutDir: true } });
