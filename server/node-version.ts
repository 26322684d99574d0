/**
 * The supported Node.js line: package.json's `engines.node`, a semver range such as `>=24.11 <25`, which `npm ci`
 * satisfies by installing the pinned Node 24 LTS from the registry as `node_modules/.bin/node` (docs/decisions/
 * 023-node-24.md). `server/main.ts` checks it before loading anything else, so that a start on an older Node (the
 * machine's own `node` outside `npm start`) stops with one clear line instead of a crash deep inside a dependency.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';

/**
 * Reads `engines.node` from the project's package.json.
 *
 * @param packageJson the file to read; defaults to the package.json next to `server/`.
 * @returns the range, e.g. `>=24.11 <25`.
 * @throws Error when the file cannot be read or has no string `engines.node`.
 */
export function supportedNodeRange(
  packageJson: URL | string = new URL('../package.json', import.meta.url),
): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { engines?: { node?: unknown } };
  const range = pkg.engines?.node;
  if (typeof range !== 'string' || semver.validRange(range) === null) {
    throw new Error(`package.json has no valid engines.node range (got ${JSON.stringify(range)})`);
  }
  return range;
}

/**
 * Why this Node.js cannot run the server, or null when it can.
 *
 * @param version a Node.js version, with or without the leading `v` (e.g. `process.version`).
 * @param range the supported range (see {@link supportedNodeRange}).
 * @param execPath the running binary, named in the message so the operator sees which `node` was picked.
 * @returns one English line for the operator's terminal, or null when `version` satisfies `range`.
 */
export function unsupportedNodeMessage(version: string, range: string, execPath: string): string | null {
  if (semver.satisfies(version, range)) return null;
  return (
    `Cunzheng needs Node.js ${range} (package.json "engines"), but this is Node.js ${version} (${execPath}). ` +
    'Start it with `npm start`, which runs the Node.js 24 that `npm ci` installs as node_modules/.bin/node, ' +
    'or install Node.js 24 LTS.'
  );
}
