/**
 * The web capture's part of the certificate (decision 037): what each captured page was — the URL
 * asked for, where it ended, its title, the server's IP address, the time, the HTTP status and the TLS certificate
 * the browser saw — from the capture job's record (`capture_jobs.meta_json`, written by the gateway's worker), and the
 * statement of a web capture. Every value is escaped by the caller's table renderer.
 */
import { PROCESS_ACTION_WORDS } from '../../contract/capture.ts';
import { formatBeijing } from '../../contract/time.ts';

/** One captured page as the certificate shows it. */
export interface CapturedPageFacts {
  requestedUrl: string;
  finalUrl: string;
  title: string;
  serverIp: string | null;
  /** ISO 8601. */
  capturedAt: string;
  status: number;
  tls: { subject: string; issuer: string; validTo: string; protocol: string } | null;
  error: string | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The pages of a capture record (JSON text: `{pages: [...]}`), keeping only the fields the certificate shows.
 * @returns [] for a missing or malformed record
 */
export function parseCaptureMeta(json: string | null | undefined): CapturedPageFacts[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const pages = (parsed as { pages?: unknown }).pages;
  if (!Array.isArray(pages)) return [];
  return pages.map((p: Record<string, unknown>) => {
    const tls = p.tls as Record<string, unknown> | null | undefined;
    return {
      requestedUrl: str(p.requestedUrl),
      finalUrl: str(p.finalUrl),
      title: str(p.title),
      serverIp: typeof p.serverIp === 'string' ? p.serverIp : null,
      capturedAt: str(p.capturedAt),
      status: typeof p.status === 'number' ? p.status : 0,
      tls: tls
        ? {
            subject: str(tls.subject),
            issuer: str(tls.issuer),
            validTo: str(tls.validTo),
            protocol: str(tls.protocol),
          }
        : null,
      error: typeof p.error === 'string' ? p.error : null,
    };
  });
}

/** The facts rows of captured page `n` (1-based) of `p`. */
export function capturedPageRows(p: CapturedPageFacts, n: number): [string, string][] {
  const time = Date.parse(p.capturedAt);
  const rows: [string, string][] = [[`取证网址 ${n}`, p.requestedUrl]];
  if (p.finalUrl && p.finalUrl !== p.requestedUrl) rows.push(['跳转后网址', p.finalUrl]);
  if (p.error) return [...rows, ['取证结果', p.error]];
  rows.push(
    ['网页标题', p.title || '—'],
    ['服务器IP地址', p.serverIp ?? '—'],
    ['取证时间', Number.isNaN(time) ? '—' : `${formatBeijing(Math.floor(time / 1000))}（北京时间）`],
    ['HTTP 状态', p.status ? String(p.status) : '—'],
  );
  if (p.tls) {
    rows.push(
      ['TLS 证书', `${p.tls.subject}（签发者：${p.tls.issuer}，有效期至 ${p.tls.validTo.slice(0, 10)}）`],
      ['TLS 协议', p.tls.protocol],
    );
  }
  return rows;
}

/** The closing statement of a web capture's certificate. */
export const WEB_STATEMENT =
  '兹证明：上述网页由本平台于取证时间在隔离的浏览器中访问并记录（整页截图、PDF、网页源码及全部网络请求的 WARC 记录，' +
  '服务器IP地址与TLS证书如上），打包为 WACZ 取证包后保全；平台计算了取证包的SHA256哈希值，并将其记录于防篡改的存证账本' +
  '（链上交易哈希如上）。取证包内 datapackage.json 列出其中每个文件的SHA256哈希值，任何人可据此逐一核验。';

/** The closing statement of a process capture's certificate. */
export const PROCESS_STATEMENT =
  '兹证明：上述取证过程由本平台于取证时间在隔离的浏览器中按用户设定的步骤执行，全程录像，并记录每一步的截图与日志及全部网络请求的' +
  ' WARC 记录，打包为 WACZ 取证包后保全；平台计算了取证包的SHA256哈希值，并将其记录于防篡改的存证账本（链上交易哈希如上）。' +
  '取证包内 datapackage.json 列出其中每个文件的SHA256哈希值，任何人可据此逐一核验。';

/** One step of a process capture as the certificate shows it. */
export interface CapturedStepFacts {
  n: number;
  action: string;
  detail: string;
  ok: boolean;
  error: string | null;
  /** ISO 8601, when the step ended. */
  at: string;
}

/**
 * The steps of a process capture's record (JSON text: `{steps: [...]}`), keeping only the fields the certificate
 * shows. @returns [] for a missing or malformed record
 */
export function parseProcessMeta(json: string | null | undefined): CapturedStepFacts[] {
  let steps: unknown;
  try {
    steps = json ? (JSON.parse(json) as { steps?: unknown }).steps : undefined;
  } catch {
    return [];
  }
  if (!Array.isArray(steps)) return [];
  return steps.map((s: Record<string, unknown>, i) => ({
    n: typeof s.n === 'number' ? s.n : i + 1,
    action: str(s.action),
    detail: str(s.detail),
    ok: s.ok === true,
    error: typeof s.error === 'string' ? s.error : null,
    at: str(s.at),
  }));
}

/** The facts rows of a process capture's steps, then its video. */
export function capturedStepRows(steps: CapturedStepFacts[]): [string, string][] {
  const rows = steps.map((s): [string, string] => {
    const what = `${PROCESS_ACTION_WORDS[s.action as keyof typeof PROCESS_ACTION_WORDS] ?? s.action}${s.detail ? `：${s.detail}` : ''}`;
    const time = Date.parse(s.at);
    const when = Number.isNaN(time) ? '' : `，${formatBeijing(Math.floor(time / 1000))}`;
    return [`第 ${s.n} 步`, s.ok ? `${what}（完成${when}）` : `${what}（未完成：${s.error ?? ''}）`];
  });
  return steps.length ? [...rows, ['取证录像', '取证包内 capture/process.webm（WebM，全程录像）']] : rows;
}
