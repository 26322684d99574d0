/**
 * Helpers of the evidence-kind platform suites (hash, user data, labels and deletion, certificate, downloads; spec
 * 01 §2.3, §2.4, §3): the demo account and a second user, and the calls that save and view evidence through
 * `inject`.
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { EvidencePaths, type EvidenceView, type SaveEvidenceData } from '../../contract/evidence.ts';
import { MusicPaths } from '../../contract/music.ts';
import { DEMO_MOBILE } from '../../platform/account/users.ts';
import { storageKeyFor } from '../../platform/evidence/baoquan.ts';
import { call, get, login, multipart, post, registerUser, upload, type PlatformHarness } from './platform.ts';

/** SHA-256 hex of `b`. */
export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Logs in the seeded demo account and registers (verified) and logs in a second user, `13900000300`; call it once
 * per suite, in `beforeAll`. @returns both tokens
 */
export async function evidenceUsers(h: PlatformHarness): Promise<{ demo: string; other: string }> {
  const demo = await login(h.app, DEMO_MOBILE, 'demo1234');
  await registerUser(h.app, h.dataDir, '13900000300', 'abc12345');
  const other = await login(h.app, '13900000300', 'abc12345');
  return { demo, other };
}

/** The evidence calls of one suite's platform, bound to its harness (read when called, so after `beforeAll`). */
export function evidenceCalls(h: PlatformHarness) {
  /** The certificate view of `baoquan`, as its owner when `token` is given. */
  const view = (baoquan: string, token?: string) =>
    get<EvidenceView>(h.app, EvidencePaths.view, { baoquan }, token);
  /** Where the stored bytes of `baoquan` live under the suite's DATA_DIR. */
  const stored = (baoquan: string) => path.join(h.dataDir, 'evidence', storageKeyFor(baoquan));
  /** Whether a file exists at `p`. */
  const exists = (p: string) =>
    fsp.stat(p).then(
      () => true,
      () => false,
    );
  /** Saves a file as evidence and expects success. @returns the saved evidence */
  async function saveFile(token: string, data: Buffer, name: string, fields: Record<string, string> = {}) {
    const r = await upload<SaveEvidenceData>(h.app, token, data, name, fields);
    expect(r.code).toBe(200);
    return r.data;
  }
  /** Saves hash evidence (JSON body). @returns the envelope */
  async function saveHash(token: string, body: Record<string, unknown>) {
    return post<SaveEvidenceData>(h.app, EvidencePaths.saveHash, body, token);
  }
  /** Saves user data as multipart: an uploaded file, or typed `fields` only when `file` is null. */
  function saveProperty(
    token: string,
    file: { data: Buffer; filename: string } | null,
    fields: Record<string, string> = {},
  ) {
    const body = multipart(fields, file ?? undefined);
    return call<SaveEvidenceData>(h.app, {
      method: 'POST',
      url: EvidencePaths.saveProperty,
      token,
      ...body,
    });
  }
  /** Saves a music work (multipart: `fields` such as title and `authors[0].role`, then the audio). @returns the envelope */
  function saveMusic(token: string, fields: Record<string, string>, data: Buffer, filename: string) {
    const body = multipart(fields, { data, filename, contentType: 'audio/wav' });
    return call<SaveEvidenceData>(h.app, { method: 'POST', url: MusicPaths.save, token, ...body });
  }
  return { view, stored, exists, saveFile, saveHash, saveProperty, saveMusic };
}
