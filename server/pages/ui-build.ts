/**
 * The UI's React Router build as the gateway serves it (server/app.ts): loaded from `build/server/index.js` in
 * production, with the base path applied (server/http/base-path.ts).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { withBasePath } from '../http/base-path.ts';

/** A React Router server build, or a function that loads one (e.g. a fresh import per request in tests). */
export type ServerBuildSource = ServerBuild | (() => ServerBuild | Promise<ServerBuild>);

/**
 * The build the UI serves: in production `build`, else `${buildDirectory}/server/index.js`, with the base path
 * applied (server/http/base-path.ts); in development `build` as given, undefined letting the adapter run Vite (which
 * serves the app at the root: BASE_PATH is not supported there).
 */
export async function servedBuild(
  build: ServerBuildSource | undefined,
  basePath: string,
  development: boolean,
  buildDirectory: string,
): Promise<ServerBuildSource | undefined> {
  if (development) return build;
  const source: ServerBuildSource = build ?? (await importBuild(buildDirectory));
  if (!basePath) return source;
  if (typeof source !== 'function') return withBasePath(source, basePath);
  return async () => withBasePath(await source(), basePath);
}

/** The production build in `${buildDirectory}/server/index.js` (the module React Router's adapter would load). */
async function importBuild(buildDirectory: string): Promise<ServerBuild> {
  return (await import(pathToFileURL(path.join(buildDirectory, 'server', 'index.js')).href)) as ServerBuild;
}
