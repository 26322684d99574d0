/**
 * /verify without JavaScript (issue 17 point 5; decision 035): the evidence package the browser uploads is written to
 * a temp file (at most {@link PACKAGE_LIMIT} bytes), checked with the offline verifier's seven steps
 * (contract/package-verify.ts, what `npm run verify` runs) against the ledger key this platform publishes —
 * not the key inside the package — and deleted. Each check counts as one public lookup of the client (the platform's
 * per-IP budget, `POST /api/check/packageKey`); over it, the page says so without reading the upload. Each step is told in plain Chinese: what it proved, or why it failed.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import type { LedgerPublicKey } from '../../contract/ledger.ts';
import { VerifyPaths } from '../../contract/verify.ts';
import { Msg } from '../../contract/messages.ts';
import { verifyPackage, type StepResult } from '../../contract/package-verify.ts';
import { apiCall } from '../lib/api.server.ts';
import { hashUpload } from './lookup.server.ts';

/** Largest package checked on the server (bytes); larger ones: `npm run verify` on the user's own machine. */
export const PACKAGE_LIMIT = 100 * 1024 * 1024;

/** One step as the page shows it. */
export interface PackageStepView {
  step: number;
  name: string;
  status: StepResult['status'];
  /** What the step proved, or why it failed or was skipped, in Chinese. */
  text: string;
  /** The verifier's own line (hashes, sizes, times), for experts. */
  detail: string;
}

/** The page's verdict on one package. */
export type PackageVerdict =
  | { error: string }
  | { ok: boolean; baoquan: string | null; keyId: string; steps: PackageStepView[]; failed: number | null };

const NAMES: Record<number, string> = {
  1: '证据包结构',
  2: '原始文件',
  3: '账本记录',
  4: '包含证明',
  5: '树头签名',
  6: '见证联署',
  7: '可信时间戳',
};

const PROVED: Record<number, string> = {
  1: '证据包中的 proof.json 完整，格式正确。',
  2: '原始文件的 SHA-256 哈希值与账本记录一致：文件自保全以来未被修改。',
  3: '账本记录是规范格式，其叶子哈希（链上交易哈希）与证据包所载一致。',
  4: '包含证明从该记录的叶子哈希推算出签名树头中的树根：该记录确实在账本中。',
  5: '签名树头及其检查点由本平台公布的账本公钥签名。',
  6: '包含该记录的检查点由账本签名，并有见证方的联署。',
  7: '包含该记录的检查点有 RFC 3161 可信时间戳，时间戳与检查点一致。',
};

const FAILED: Record<number, string> = {
  1: '证据包不完整或 proof.json 格式错误。',
  2: '原始文件与账本记录不一致：文件已被修改，或不是这份证据的文件。',
  3: '账本记录与证据包不一致：记录或其哈希已被改动。',
  4: '包含证明无法推算出签名树头的树根：证明中的哈希已被改动。',
  5: '树头签名无法用本平台公布的账本公钥验证：证据包的签名来自其他密钥，或签名树头、检查点已被改动。',
  6: '见证联署或其包含证明无效。',
  7: '可信时间戳与检查点不一致，或时间戳签名无效。',
};

const SKIPPED: Record<number, string> = {
  2: '证据包中没有原始文件（哈希存证，或数据已被用户删除），未核对文件哈希。',
  6: '打包时尚无见证方联署包含该记录的检查点。',
  7: '打包时尚无可信时间戳覆盖包含该记录的检查点。',
};

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
    const [report] = await verifyPackage(file, { keyPem: key.data.pem });
    if (!report) return { error: '证据包不完整或 proof.json 格式错误。' };
    const steps = report.steps.map((s) => ({
      step: s.step,
      name: NAMES[s.step]!,
      status: s.status,
      text: (s.status === 'pass' ? PROVED : s.status === 'fail' ? FAILED : SKIPPED)[s.step] ?? '未核对。',
      detail: s.detail,
    }));
    return {
      ok: report.ok,
      baoquan: report.baoquan,
      keyId: key.data.keyId,
      steps,
      failed: report.failed?.step ?? null,
    };
  } catch {
    return { error: '无法读取该文件：请上传从证据页面下载的证据包（ZIP 文件）。' };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
