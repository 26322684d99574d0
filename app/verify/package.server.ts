/**
 * /verify without JavaScript (decision 035): the evidence package the browser uploads is written to
 * a temp file (at most {@link PACKAGE_LIMIT} bytes), checked with the offline verifier's seven steps
 * (contract/package-verify.ts, what `npm run verify` runs) against the ledger key this platform publishes —
 * not the key inside the package — and deleted. Each check counts as one public lookup of the client (the platform's
 * per-IP budget, `POST /api/check/packageKey`); over it, the page says so without reading the upload. Each step is
 * told in plain Chinese (package-steps.ts): what it proved, or why it failed. With JavaScript the page checks the
 * package in the browser instead (package-browser.ts) and nothing is uploaded.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import type { LedgerPublicKey } from '../../contract/ledger.ts';
import { VerifyPaths } from '../../contract/verify.ts';
import { Msg } from '../../contract/messages.ts';
import { verifyPackage } from '../../contract/package-verify.ts';
import { packageVerdict, UNREADABLE_PACKAGE, type PackageVerdict } from './package-steps.ts';
import { apiCall } from '../lib/api.server.ts';
import { hashUpload } from './lookup.server.ts';

/** Largest package checked on the server (bytes); larger ones: `npm run verify` on the user's own machine. */
export const PACKAGE_LIMIT = 100 * 1024 * 1024;

/**
 * Receives the `package` file of the form, checks it and deletes it.
 * @returns the verdict, or an error message (no file, too large, a broken form, the key unavailable)
 */
export async function checkUploadedPackage(
  request: Request,
  context: AppLoadContext,
): Promise<PackageVerdict> {
  // the published key, asked first: the call counts against the client's lookup budget, so a client over it is
  // refused before its upload is read
  const key = await apiCall<LedgerPublicKey>(context, VerifyPaths.packageKey, {
    method: 'POST',
    urlPath: new URL(request.url).pathname,
  });
  if (!isSuccess(key.code)) return { error: key.msg || Msg.connectionFailed };
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-verify-'));
  const file = path.join(dir, 'package.zip');
  try {
    const upload = await hashUpload(request, {
      field: 'package',
      limit: PACKAGE_LIMIT,
      saveTo: file,
      tooLarge: `证据包超过${PACKAGE_LIMIT / 1024 / 1024}MB，请使用命令行工具 npm run verify 在本机核验`,
    });
    if ('error' in upload) return upload;
    if (!upload.sha256) return { error: '请选择证据包（ZIP 文件）' };
    return await packageVerdict(key.data, (opts) => verifyPackage(file, opts));
  } catch {
    return { error: UNREADABLE_PACKAGE };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
