/**
 * The verdict of the package check in the words of the /verify page (decision 035): each of the
 * seven steps of contract/package-core.ts told in plain Chinese — what it proved, or why it failed or was skipped —
 * with the verifier's own line kept for experts. Shared by the upload path (package.server.ts), the in-browser check
 * (package-browser.ts) and the saved offline verifier, so all three say the same.
 */
import type { LedgerPublicKey } from '../../contract/ledger.ts';
import type { PackageReport, StepResult, VerifyOptions } from '../../contract/package-core.ts';

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

/** Each step's name, what it proves when it passes, why it fails, and (for the steps that may) why it is skipped. */
const STEPS: Record<number, { name: string; proved: string; failed: string; skipped?: string }> = {
  1: {
    name: '证据包结构',
    proved: '证据包中的 proof.json 完整，格式正确。',
    failed: '证据包不完整或 proof.json 格式错误。',
  },
  2: {
    name: '原始文件',
    proved: '原始文件的 SHA-256 哈希值与账本记录一致：文件自保全以来未被修改。',
    failed: '原始文件与账本记录不一致：文件已被修改，或不是这份证据的文件。',
    skipped: '证据包中没有原始文件（哈希存证，或数据已被用户删除），未核对文件哈希。',
  },
  3: {
    name: '账本记录',
    proved: '账本记录是规范格式，其叶子哈希（链上交易哈希）与证据包所载一致。',
    failed: '账本记录与证据包不一致：记录或其哈希已被改动。',
  },
  4: {
    name: '包含证明',
    proved: '包含证明从该记录的叶子哈希推算出签名树头中的树根：该记录确实在账本中。',
    failed: '包含证明无法推算出签名树头的树根：证明中的哈希已被改动。',
  },
  5: {
    name: '树头签名',
    proved: '签名树头及其检查点由本平台公布的账本公钥签名。',
    failed: '树头签名无法用本平台公布的账本公钥验证：证据包的签名来自其他密钥，或签名树头、检查点已被改动。',
  },
  6: {
    name: '见证联署',
    proved: '包含该记录的检查点由账本签名，并有见证方的联署。',
    failed: '见证联署或其包含证明无效。',
    skipped: '打包时尚无见证方联署包含该记录的检查点。',
  },
  7: {
    name: '可信时间戳',
    proved: '包含该记录的检查点有 RFC 3161 可信时间戳，时间戳与检查点一致。',
    failed: '可信时间戳与检查点不一致，或时间戳签名无效。',
    skipped: '打包时尚无可信时间戳覆盖包含该记录的检查点。',
  },
};

/** The page's view of one package's report; `keyId` is the published ledger key it was checked against. */
export function verdictOf(report: PackageReport, keyId: string): PackageVerdict {
  const steps = report.steps.map((s) => ({
    step: s.step,
    name: STEPS[s.step]!.name,
    status: s.status,
    text:
      (s.status === 'pass'
        ? STEPS[s.step]?.proved
        : s.status === 'fail'
          ? STEPS[s.step]?.failed
          : STEPS[s.step]?.skipped) ?? '未核对。',
    detail: s.detail,
  }));
  return { ok: report.ok, baoquan: report.baoquan, keyId, steps, failed: report.failed?.step ?? null };
}

/** The verdict's one-line summary: which evidence is proven in the ledger, or which step failed. */
export function summaryOf(v: Exclude<PackageVerdict, { error: string }>): string {
  return v.ok
    ? `核验通过：证据 ${v.baoquan ?? ''} 已按证据包所载记录在账本中。`
    : `核验未通过：第 ${v.failed ?? ''} 步（${v.steps.find((s) => s.step === v.failed)?.name ?? ''}）失败。`;
}

/** A step's status as the page words it. */
export const STATUS_WORDS = { pass: '通过', fail: '未通过', skip: '未核对' } as const;

/** Said when the file is not a ZIP that can be read. */
export const UNREADABLE_PACKAGE = '无法读取该文件：请上传从证据页面下载的证据包（ZIP 文件）。';
/** Said when the ZIP holds no package at all. */
export const NO_PACKAGE = '证据包不完整或 proof.json 格式错误。';

/**
 * Runs `check` (a reader of the package's ZIP and the seven steps) with the verifier options of the published key
 * `key` and words its first report: the page's verdict, or why there is none — the ZIP cannot be read (`check`
 * threw) or holds no package. Never throws.
 */
export async function packageVerdict(
  key: LedgerPublicKey,
  check: (opts: VerifyOptions) => Promise<PackageReport[]>,
): Promise<PackageVerdict> {
  try {
    const [report] = await check(verifyOptionsOf(key));
    return report ? verdictOf(report, key.keyId) : { error: NO_PACKAGE };
  } catch {
    return { error: UNREADABLE_PACKAGE };
  }
}

/**
 * The verifier's options for a published key: the package must be signed by it, the cosignatures of its witnesses
 * are checked, and the token must chain to its TSA's certificates.
 */
export function verifyOptionsOf(key: LedgerPublicKey): VerifyOptions {
  return { keyPem: key.pem, witnessKeys: key.witnesses ?? [], tsaCertsPem: key.tsaCertificates };
}
