/**
 * Test support for platform suites: `forEachDialect` runs a suite once on SQLite (temp DATA_DIR) and once on
 * PostgreSQL (a fresh database created for the suite on 127.0.0.1:5432 and dropped afterwards), with a cheap scrypt
 * cost and test hooks on. Each starts as a copy of the run's migrated template (tests/support/global-setup.ts) when
 * there is one, so the platform finds every migration applied, with the run's payment sandbox keys in DATA_DIR. Plus small helpers to call the API through `inject`
 * and build multipart bodies.
 *
 * Env: TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test) is the admin connection used to create the
 * per-suite databases; PLATFORM_TEST_DIALECTS (default "sqlite,postgres") narrows the dialects.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { type Kysely, Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { AccountPaths, type LoginData } from '../../contract/account.ts';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths } from '../../contract/evidence.ts';
import { buildPlatform } from '../../platform/app.ts';
import { DEMO_MOBILE } from '../../platform/account/users.ts';
import { saveEvidence } from '../../platform/evidence/service.ts';
import { loadPlatformConfig, type PlatformConfig } from '../../platform/config.ts';
import { openDatabase, type PlatformDb } from '../../platform/db/database.ts';
import { migrationProvider } from '../../platform/db/migrations/index.ts';
import { ADMIN_URL, DIALECTS, databaseUrl, seedDataDir, type TestDialect } from './templates.ts';

export type { TestDialect } from './templates.ts';

/** What a suite gets: filled in by beforeAll, valid inside tests. */
export interface PlatformHarness {
  dialect: TestDialect;
  app: FastifyInstance;
  config: PlatformConfig;
  dataDir: string;
}

/**
 * Creates an isolated database for one suite: empty, or a copy of database `template` (which must have no open
 * connections), e.g. the run's migrated template.
 * @returns its URL and a function that drops it.
 */
export async function createTestDatabase(
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cz_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The config a test platform runs with: test env, hooks on, cheap scrypt, silent logs, plus `env` overrides. */
export function testConfig(
  dataDir: string,
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
) {
  return loadPlatformConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    APP_ENV: 'test',
    TEST_HOOKS: '1',
    SCRYPT_N: '1024',
    LOG_LEVEL: 'silent',
    // every suite registers its users from one loopback address; the per-IP SMS quota has its own test
    SMS_MAX_PER_IP_HOUR: '100000',
    // recurring jobs (face polling, reconciliation) stay off in unit suites; platform/jobs/jobs.test.ts runs them
    PLATFORM_JOBS: '0',
    ...env,
  });
}

/**
 * Declares `body` once per dialect inside `describe('<title> [<dialect>]')`. The harness passed to `body` is filled
 * in `beforeAll` (a fresh DATA_DIR, database and platform; the database a copy of the run's migrated template when
 * the global setup provided one) and torn down in `afterAll`.
 * @param env extra platform env for this suite (e.g. MAX_UPLOAD_BYTES)
 */
export function forEachDialect(
  title: string,
  body: (h: PlatformHarness) => void,
  env: Record<string, string> = {},
): void {
  describe.each(DIALECTS)(`${title} [%s]`, (dialect) => {
    const h = { dialect } as PlatformHarness;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      h.dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-platform-'));
      const templates = inject('platformTemplates');
      let url: string | undefined;
      if (dialect === 'postgres') ({ url, drop } = await createTestDatabase(templates?.postgres));
      h.config = testConfig(h.dataDir, url, env);
      await seedDataDir(templates, h.dataDir, h.config.database.dialect === 'sqlite');
      h.app = await buildPlatform(h.config, { logger: false });
    });
    afterAll(async () => {
      await h.app?.close();
      await drop?.();
      if (h.dataDir) await fsp.rm(h.dataDir, { recursive: true, force: true });
    });
    body(h);
  });
}

/** Sends a request through inject and parses the envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  opts: InjectOptions & { token?: string },
): Promise<ApiEnvelope<T> & { status: number }> {
  const { token, ...rest } = opts;
  const res = await app.inject({
    ...rest,
    headers: { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { ...(res.json() as ApiEnvelope<T>), status: res.statusCode };
}

/** POST with a JSON body (or form-encoded when `form`). */
export function post<T = unknown>(
  app: FastifyInstance,
  url: string,
  body: Record<string, unknown> = {},
  token?: string,
  form = false,
) {
  return form
    ? call<T>(app, {
        method: 'POST',
        url,
        token,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(body as Record<string, string>).toString(),
      })
    : call<T>(app, { method: 'POST', url, payload: body, token });
}

/** GET with a query. */
export function get<T = unknown>(
  app: FastifyInstance,
  url: string,
  query: Record<string, unknown> = {},
  token?: string,
) {
  const qs = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return call<T>(app, { method: 'GET', url: qs ? `${url}?${qs}` : url, token });
}

/** A multipart/form-data body with text `fields` and an optional file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { data: Buffer; filename: string; field?: string; contentType?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----cz${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Logs in and returns the token. @throws when login fails */
export async function login(app: FastifyInstance, mobile: string, password: string): Promise<string> {
  const r = await post<LoginData>(app, AccountPaths.login, { mobile, password });
  if (r.code !== 200) throw new Error(`login failed: ${r.msg}`);
  return r.data.token;
}

/** Reads the newest SMS code sent to `mobile` from the sandbox outbox. */
export async function lastSmsCode(dataDir: string, mobile: string): Promise<string> {
  const text = await fsp.readFile(path.join(dataDir, 'outbox', 'sms.log'), 'utf8');
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { mobile: string; code?: string });
  const hit = lines.reverse().find((l) => l.mobile === mobile && l.code);
  if (!hit?.code) throw new Error(`no SMS for ${mobile}`);
  return hit.code;
}

/**
 * Registers `mobile` through the real captcha → SMS → register flow (captcha read via the test hook). Unless
 * `verified` is false, the user is then marked verified (userStatus '3', personal, photo) directly in the database,
 * as setup for suites behind the KYC gate (spec 02 §6, decision 011); KYC suites pass false and verify through the
 * real calls.
 */
export async function registerUser(
  app: FastifyInstance,
  dataDir: string,
  mobile: string,
  password: string,
  verified = true,
) {
  const img = await post<{ key: string }>(app, AccountPaths.imgCode);
  const hook = await get<{ code: string }>(app, '/api/__test/captcha', { key: img.data.key });
  const sms = await post(app, AccountPaths.sendSms, {
    mobile,
    imgKey: img.data.key,
    imgCode: hook.data.code,
  });
  if (sms.code !== 200) throw new Error(`sendSMS failed: ${sms.msg}`);
  const smsCode = await lastSmsCode(dataDir, mobile);
  const reg = await post(app, AccountPaths.register, { mobile, password, smsCode });
  if (reg.code !== 200) throw new Error(`register failed: ${reg.msg}`);
  if (verified) {
    await app.pdb.db
      .updateTable('users')
      .set({ user_status: '3', account_type: 1, auth_type: 1 })
      .where('mobile', '=', mobile)
      .execute();
  }
}

/** Uploads `data` as evidence through inject. */
export function upload<T = unknown>(
  app: FastifyInstance,
  token: string,
  data: Buffer,
  filename: string,
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, { data, filename });
  return call<T>(app, { method: 'POST', url: EvidencePaths.save, token, ...body });
}

/**
 * For migration tests: a fresh database of the suite's dialect (a temp SQLite file, or a new PostgreSQL database)
 * with its migrator, handed to `fn`; closed and removed afterwards, whatever `fn` does.
 */
export async function withScratchDatabase(
  h: Pick<PlatformHarness, 'dialect'>,
  fn: (pdb: PlatformDb, migrator: Migrator) => Promise<void>,
): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-mig-'));
  const pgdb = h.dialect === 'postgres' ? await createTestDatabase() : null;
  const pdb = openDatabase(testConfig(dir, pgdb?.url).database);
  try {
    await fn(pdb, new Migrator({ db: pdb.db, provider: migrationProvider(pdb.dialect) }));
  } finally {
    await pdb.close();
    await pgdb?.drop();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * For migration tests: inserts a user row as the early migrations know it (no later columns), with `mobile` and
 * `userStatus` ('3' verified, '4' rejected…). @returns its id
 */
export async function insertBareUser(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  mobile: string,
  userStatus: string,
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      mobile,
      password_hash: 'x',
      user_status: userStatus,
      account_type: 1,
      auth_type: 1,
      user_name: '',
      points: 0,
      extract_code: 'abcd',
      check_remark: '',
      created_at: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Saves hash evidence (no bytes to store) of the demo account straight through `saveEvidence`, as an area's save
 * does: its ledger entry and its `saved` evidence event commit with it (decision 059).
 * @param sha256 64 hex digits; random when absent
 * @returns what the save answers (id, baoquan, …)
 */
export async function saveDemoHashEvidence(
  app: FastifyInstance,
  title: string,
  sha256: string = randomBytes(32).toString('hex'),
) {
  const demo = await app.pdb.db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', DEMO_MOBILE)
    .executeTakeFirstOrThrow();
  return saveEvidence(app.pdb, app.storage, {
    userId: Number(demo.id),
    title,
    label: '',
    fileName: '',
    file: { path: null, size: 0, sha256 },
    type: { fileType: 5, mime: '' },
    kind: 'hash',
  });
}
