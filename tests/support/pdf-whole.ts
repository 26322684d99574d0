/**
 * Helpers of the PDF and package tests and of `bench/pdf.ts`: the whole process (embedded platform + gateway + the
 * production UI build) on loopback with a fresh DATA_DIR, the demo login, and evidence uploads through the API.
 * Not imported by production code.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { type DownloadData, EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { chromiumPath } from './environment.ts';

/** The React Router production build the gateway serves (`npm run build`). */
export const BUILD_DIR = path.resolve(import.meta.dirname, '../../build');
export const DEMO_MOBILE = '13800138000';
export const DEMO_PASSWORD = 'demo1234';

/** True when the production UI build exists. */
export const hasBuild = (): boolean => existsSync(path.join(BUILD_DIR, 'server', 'index.js'));
/** True when Chromium is where the renderer looks for it. */
export const hasChromium = (): boolean => existsSync(chromiumPath());

const run = promisify(execFile);
/** True when `tool` (e.g. pdftotext) runs. */
export async function hasTool(tool: string): Promise<boolean> {
  try {
    await run(tool, ['-v']);
    return true;
  } catch (err) {
    // poppler tools print their version on stderr and exit 0 or 99 depending on the version
    return (err as { code?: unknown }).code !== 'ENOENT';
  }
}

/** The whole process for these tests is the integration suites' one (same environment, same clean-up). */
export { startWhole, type Whole } from './integration.ts';

/** `POST /api/login` with the demo account → the bearer token. */
export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mobile: DEMO_MOBILE, password: DEMO_PASSWORD }),
  });
  const env = (await res.json()) as ApiEnvelope<{ token: string }>;
  if (Number(env.code) !== 200) throw new Error(`login failed: ${JSON.stringify(env)}`);
  return env.data.token;
}

/** Uploads `bytes` as file evidence (multipart `POST /api/data/save`) → the saved evidence. */
export async function uploadEvidence(
  base: string,
  token: string,
  opts: { title: string; fileName: string; bytes: Uint8Array<ArrayBuffer> },
): Promise<SaveEvidenceData> {
  const form = new FormData();
  form.set('title', opts.title);
  form.set('file', new Blob([opts.bytes]), opts.fileName);
  const res = await fetch(`${base}${EvidencePaths.save}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as ApiEnvelope<SaveEvidenceData>;
  if (Number(env.code) !== 200) throw new Error(`upload failed: ${JSON.stringify(env)}`);
  return env.data;
}

/** `POST /api/data/downBaoquan {dataId}` as the owner → the envelope (packageUrl once the platform issues it). */
export async function ownerDownload(
  base: string,
  token: string,
  dataId: number,
): Promise<ApiEnvelope<Partial<DownloadData>>> {
  const res = await fetch(`${base}${EvidencePaths.ownerDownload}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dataId }),
  });
  return (await res.json()) as ApiEnvelope<Partial<DownloadData>>;
}

/** Runs a command and resolves with its stdout (UTF-8). */
export async function stdoutOf(cmd: string, args: string[]): Promise<string> {
  const { stdout } = await run(cmd, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
