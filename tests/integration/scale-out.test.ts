/**
 * The scale-out shape (decision 040): two platform processes (`npm run start:platform`'s entry) started at the
 * same moment on one fresh PostgreSQL database and one shared data directory, and two gateways, each in front of its
 * own platform. The migrations apply once (neither platform fails to start); evidence saved through either gateway
 * is read through the other; uploads through both at once get distinct, consecutive ledger positions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidencePaths, type EvidenceView, type SaveEvidenceData } from '../../contract/evidence.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import {
  BUILD_DIR,
  closedPort,
  DEMO_MOBILE,
  DEMO_PASSWORD,
  freshDataDir,
  testEnv,
  whenHealthy,
  exitOf,
  type Envelope,
} from '../support/integration.ts';
import { createTestDatabase } from '../support/platform.ts';
import { childEnvironment } from '../support/environment.ts';

describe('two platforms and two gateways on one PostgreSQL', () => {
  const shared = freshDataDir();
  const gatewayDirs = [freshDataDir(), freshDataDir()];
  const pdfCache = freshDataDir();
  const platforms: ChildProcess[] = [];
  const gateways: RunningServer[] = [];
  let drop: (() => Promise<void>) | undefined;
  let bases: string[] = [];

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    const ports = [await closedPort(), await closedPort()];
    for (const port of ports) {
      const env = childEnvironment({
        APP_ENV: 'test',
        DATA_DIR: shared,
        DATABASE_URL: db.url,
        PLATFORM_HOST: '127.0.0.1',
        PLATFORM_PORT: String(port),
        SCRYPT_N: '1024',
        LOG_LEVEL: 'silent',
        SEED_DEMO: '1',
      });
      platforms.push(spawn(process.execPath, ['platform/main.ts'], { env, stdio: 'ignore' }));
    }
    await Promise.all(ports.map((p) => whenHealthy(`http://127.0.0.1:${p}/api/healthz`)));
    for (const [i, port] of ports.entries()) {
      // the gateways share one PDF cache directory (a network volume in production)
      const env = testEnv(gatewayDirs[i]!, {
        UPSTREAM_URL: `http://127.0.0.1:${port}`,
        PDF_CACHE_DIR: pdfCache,
      });
      gateways.push(await startServer(env, { mode: 'production', buildDirectory: BUILD_DIR }));
    }
    bases = gateways.map((g) => g.url.replace('localhost', '127.0.0.1'));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.closeAll()));
    for (const p of platforms) p.kill('SIGTERM');
    await Promise.all(platforms.map(exitOf));
    await drop?.();
    for (const d of [shared, pdfCache, ...gatewayDirs]) rmSync(d, { recursive: true, force: true });
  });

  it('saves through one gateway and reads through the other; concurrent saves get distinct ledger positions', async () => {
    const login = await fetch(`${bases[0]}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: DEMO_MOBILE, password: DEMO_PASSWORD }),
    });
    const { token } = ((await login.json()) as Envelope<{ token: string }>).data;
    const save = async (base: string, bytes: Buffer) => {
      const form = new FormData();
      form.set('title', '跨实例');
      form.set('file', new Blob([new Uint8Array(bytes)]), 'a.bin');
      const res = await fetch(`${base}${EvidencePaths.save}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const env = (await res.json()) as Envelope<SaveEvidenceData>;
      expect(env.code, env.msg).toBe(200);
      return env.data;
    };
    const files = Array.from({ length: 12 }, () => randomBytes(2048));
    const saved = await Promise.all(files.map((f, i) => save(bases[i % 2]!, f)));
    const views = await Promise.all(
      saved.map(async (s, i) => {
        // read through the other gateway (and so the other platform)
        const res = await fetch(`${bases[(i + 1) % 2]}${EvidencePaths.view}?baoquan=${s.baoquan}`);
        return ((await res.json()) as Envelope<EvidenceView>).data;
      }),
    );
    expect(views.map((v) => v.filehash)).toEqual(
      files.map((f) => createHash('sha256').update(f).digest('hex')),
    );
    const positions = views.map((v) => v.leafIndex).sort((a, b) => a - b);
    expect(new Set(positions).size).toBe(12);
    expect(positions[11]! - positions[0]!).toBe(11);
    const page = await fetch(`${bases[1]}/attestation/${saved[0]!.baoquan}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(saved[0]!.baoquan);
    // a certificate PDF rendered by one gateway is served from the shared cache by the other
    const pdfOf = async (base: string) => {
      // connection: close — an idle keep-alive connection left by this client after a streamed file was seen to
      // keep the in-process gateway's close waiting (noted in decision 046)
      const res = await fetch(`${base}/attestation/${saved[1]!.baoquan}.pdf`, {
        headers: { connection: 'close' },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      return {
        status: res.status,
        cache: res.headers.get('x-pdf-cache'),
        pdf: bytes.subarray(0, 5).toString(),
      };
    };
    expect(await pdfOf(bases[0]!)).toEqual({ status: 200, cache: 'miss', pdf: '%PDF-' });
    expect(await pdfOf(bases[1]!)).toEqual({ status: 200, cache: 'hit', pdf: '%PDF-' });
  });
});
