/** Every way of starting the product passes the runtime flags (server/runtime-flags.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_FLAGS } from './runtime-flags.ts';

const root = new URL('..', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('runtime flags', () => {
  it('are passed by npm start, npm run dev, npm run start:platform and the container', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const cmd = /^CMD \[(.*)\]$/m.exec(read('Dockerfile').split('ENTRYPOINT')[1] ?? '')?.[1] ?? '';
    expect(RUNTIME_FLAGS.length).toBeGreaterThan(0);
    expect(scripts.start).toContain(`node ${RUNTIME_FLAGS.join(' ')} server/main.ts`);
    expect(scripts.dev).toContain(`node ${RUNTIME_FLAGS.join(' ')} server/main.ts`);
    // the standalone platform of the scale-out shape receives the uploads itself
    expect(scripts['start:platform']).toContain(`node ${RUNTIME_FLAGS.join(' ')} platform/main.ts`);
    expect(cmd).toContain(`"node", ${RUNTIME_FLAGS.map((flag) => `"${flag}"`).join(', ')}, "server/main.ts"`);
  });

  it('start the product and its command-line tools without a TypeScript loader: Node.js strips the types itself', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const cmd = /^CMD \[(.*)\]$/m.exec(read('Dockerfile').split('ENTRYPOINT')[1] ?? '')?.[1] ?? '';
    for (const name of ['start', 'dev', 'start:platform', 'verify', 'witness', 'ops', 'backup'])
      expect(scripts[name], name).not.toMatch(/--import|--require|tsx/);
    expect(cmd).not.toMatch(/--import|tsx/);
  });
});
