/** Every way of starting the product passes the runtime flags (server/runtime-flags.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_FLAGS } from './runtime-flags.ts';

const root = new URL('..', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('runtime flags', () => {
  it('are passed by npm start, npm run dev and the container', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const cmd = /^CMD \[(.*)\]$/m.exec(read('Dockerfile').split('ENTRYPOINT')[1] ?? '')?.[1] ?? '';
    for (const flag of RUNTIME_FLAGS) {
      expect(scripts.start).toContain(`node ${flag} `);
      expect(scripts.dev).toContain(`node ${flag} `);
      expect(cmd).toContain(`"${flag}"`);
    }
  });
});
