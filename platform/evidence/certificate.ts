/**
 * The certificate body (`html` of the evidence view, spec 01 §2.3, §3), rendered from a fixed template per evidence
 * kind (docs/decisions/006-evidence-kinds.md): file, hash (the platform never saw the file), property (row
 * count and field names with example values cut to 10 characters) and app capture (forensic type and device
 * name, model, version, processor, kernel). Each says what its package ZIP holds (decision 028: a hash evidence's
 * package has no original file, user data's has data.csv); deleted evidence carries the owner's deletion date. Every
 * interpolated value is HTML-escaped; the UI sanitizes it again before rendering (ARCHITECTURE).
 */
import { escapeHtml } from '../../contract/html-escape.ts';
import {
  capturedPageRows,
  capturedStepRows,
  PROCESS_STATEMENT,
  WEB_STATEMENT,
  type CapturedPageFacts,
  type CapturedStepFacts,
} from './certificate-web.ts';
import { fileTypeLabel, packageContents, type EvidenceView } from '../../contract/evidence.ts';
import { formatBytes } from '../../contract/messages.ts';
import { formatBeijing } from '../core/time.ts';
import type { MusicWork } from '../../contract/music.ts';
import { musicRows } from '../music/certificate-music.ts';
import type { EvidenceKind } from './schema.ts';

/** Device facts of app-captured evidence (empty strings when unknown), as the evidence view states them. */
export type DeviceFacts = Pick<
  EvidenceView,
  'appType' | 'configName' | 'configModelName' | 'configVersion' | 'configProcessor' | 'configCore'
>;

/** The facts a certificate states. Sizes in bytes; `saveTime` already formatted in Beijing time. */
export interface CertificateFacts extends Pick<
  EvidenceView,
  'baoquan' | 'title' | 'fileName' | 'fileSize' | 'fileType' | 'saveTime' | 'chainhash'
> {
  /** Default 'file'. */
  kind?: EvidenceKind;
  ownerMobile: string;
  sha256: string;
  /** "YYYY-MM-DD" (Beijing) when the owner deleted the stored data. */
  deletedAt?: string | null;
  /** User data: row count and fields with example values (already cut to 10 characters). */
  userData?: EvidenceView['userData'];
  device?: DeviceFacts;
  /** Web capture: the captured pages (certificate-web.ts). */
  capture?: CapturedPageFacts[];
  /** Process capture: its steps (certificate-web.ts). */
  steps?: CapturedStepFacts[];
  /** Music work: ISRC, authors, duration, format (music/certificate-music.ts). */
  music?: MusicWork | null;
}

/** "138****8000": the first three and last four digits of a mobile number; other shapes keep only the ends. */
export function maskMobile(mobile: string): string {
  if (mobile.length >= 7) return `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;
  return mobile.length > 2 ? `${mobile[0]}***${mobile.slice(-1)}` : '***';
}

/** "YYYY-MM-DD" of unix seconds in Beijing time (deletion dates, spec 01 §3 style). */
export function formatBeijingDate(unixSeconds: number): string {
  return formatBeijing(unixSeconds).slice(0, 10);
}

/** The sentence a deleted evidence's certificate carries. */
export function deletedNotice(date: string): string {
  return `该证据数据已由所有人于 ${date} 删除，保全记录仍保留在存证账本中`;
}

/** The sentence of a hash evidence's certificate: the platform never received the file. */
export const HASH_ONLY_NOTICE = '平台仅保存了用户提交的哈希值，未接收原始文件';

const sizeText = (bytes: number) => `${formatBytes(bytes)}（${bytes} 字节）`;
/** Hash rows get `cz-hash`: printed on one line in a monospace face, never split mid-value (decision 029). */
const row = ([k, v]: [string, string]) =>
  `<tr><th scope="row">${escapeHtml(k)}</th>` +
  `<td${/SHA256|哈希/.test(k) ? ' class="cz-hash"' : ''}>${escapeHtml(v)}</td></tr>`;

/** The facts table rows for the kind, ending with what its package holds (unless the data was deleted). */
function factRows(f: CertificateFacts): [string, string][] {
  const rows = kindRows(f);
  return f.deletedAt ? rows : [...rows, ['证据包内容', packageContents(f.kind ?? 'file')]];
}

/** The facts of the kind: number, title, what was received, time, owner, hashes. */
function kindRows(f: CertificateFacts): [string, string][] {
  const kind = f.kind ?? 'file';
  const head: [string, string][] = [
    ['保全编号', f.baoquan],
    ['证据名称', f.title],
  ];
  const tail: [string, string][] = [
    ['保全时间', `${f.saveTime}（北京时间）`],
    ['保全人', maskMobile(f.ownerMobile)],
  ];
  if (kind === 'hash') {
    return [
      ...head,
      ['证据类型', '哈希值保全'],
      ...(f.fileName ? ([['文件名称（用户提供）', f.fileName]] as [string, string][]) : []),
      ...(f.fileSize > 0 ? ([['文件大小（用户提供）', sizeText(f.fileSize)]] as [string, string][]) : []),
      ['文件类型', f.fileName ? `${fileTypeLabel(f.fileType)}（按用户提供的文件名推断，未经核实）` : '其他'],
      ...tail,
      ['文件SHA256（用户提交）', f.sha256],
      ['链上交易哈希', f.chainhash],
    ];
  }
  if (kind === 'property') {
    return [
      ...head,
      ['证据类型', '用户数据保全'],
      ['数据格式', 'CSV（UTF-8，RFC 4180，含表头）'],
      ['数据行数', `${f.userData?.line ?? 0} 行（不含表头）`],
      ['数据大小', sizeText(f.fileSize)],
      ...tail,
      ['数据SHA256', f.sha256],
      ['链上交易哈希', f.chainhash],
    ];
  }
  const rows: [string, string][] = [
    ...head,
    ['文件名称', f.fileName],
    ['文件大小', sizeText(f.fileSize)],
    ['文件类型', fileTypeLabel(f.fileType)],
  ];
  if (kind === 'web' || kind === 'process') {
    return [
      ...head,
      ['证据类型', kind === 'web' ? '网页取证' : '过程取证（录像）'],
      ...(f.capture ?? []).flatMap((p, i) => capturedPageRows(p, i + 1)),
      ...capturedStepRows(f.steps ?? []),
      ['取证包文件', `${f.fileName}（WACZ，${sizeText(f.fileSize)}）`],
      ...tail,
      ['取证包SHA256', f.sha256],
      ['链上交易哈希', f.chainhash],
    ];
  }
  if (kind === 'music') {
    return [
      ...head,
      ['证据类型', '音乐作品保全'],
      ...musicRows(f.music),
      ...rows.slice(2),
      ...tail,
      ['文件SHA256', f.sha256],
      ['链上交易哈希', f.chainhash],
    ];
  }
  if (kind === 'app') {
    const d = f.device;
    rows.push(
      ['取证类型', d?.appType || '—'],
      ['设备名称', d?.configName || '—'],
      ['设备型号', d?.configModelName || '—'],
      ['系统版本', d?.configVersion || '—'],
      ['处理器', d?.configProcessor || '—'],
      ['内核', d?.configCore || '—'],
    );
  }
  return [...rows, ...tail, ['文件SHA256', f.sha256], ['链上交易哈希', f.chainhash]];
}

/** The closing statement for the kind. */
function statement(kind: EvidenceKind): string {
  if (kind === 'web') return WEB_STATEMENT;
  if (kind === 'process') return PROCESS_STATEMENT;
  if (kind === 'hash') {
    return (
      `${HASH_ONLY_NOTICE}。上述文件名称、大小和类型由用户提供，平台未经核实，文件名称不能证明文件内容。` +
      `平台已将该哈希值记录于防篡改的存证账本（链上交易哈希如上）。任何人可重新计算原始文件的SHA256哈希值，` +
      `与本证书所载数值比对：一致即表明该文件在保全时间已经存在且自此未被篡改。`
    );
  }
  if (kind === 'property') {
    return (
      `兹证明：上述用户数据已由本平台于保全时间完整接收，规范为CSV格式（UTF-8编码，RFC 4180，首行为字段名称）后保全，` +
      `平台计算了该CSV数据的SHA256哈希值，并将其记录于防篡改的存证账本（链上交易哈希如上）。` +
      `任何人可重新计算所下载的 data.csv 的SHA256哈希值，与本证书所载数值比对，以核验数据自保全以来未被篡改。`
    );
  }
  return (
    `兹证明：上述电子数据已由本平台于保全时间完整接收并保全，` +
    `平台计算了该数据的SHA256哈希值，并将其记录于防篡改的存证账本（链上交易哈希如上）。` +
    `任何人可重新计算原始文件的SHA256哈希值，与本证书所载数值比对，以核验数据自保全以来未被篡改。`
  );
}

/**
 * Renders the certificate body of `f` (spec 01 §2.3): a facts table, for user data a table of the field names with
 * example values (cut to 10 characters), the statement of the kind, and the deletion notice when deleted.
 */
export function renderCertificateHtml(f: CertificateFacts): string {
  const kind = f.kind ?? 'file';
  const body = factRows(f).map(row).join('');
  const fields =
    kind === 'property' && f.userData
      ? `<table class="cz-certificate-fields"><caption>数据字段（示例值取第一行数据的前10个字符）</caption>` +
        `<thead><tr><th scope="col">字段名称</th><th scope="col">示例值</th></tr></thead><tbody>` +
        f.userData.fields
          .map((x) => `<tr><td>${escapeHtml(x.fieldName)}</td><td>${escapeHtml(x.exampleValue)}</td></tr>`)
          .join('') +
        `</tbody></table>`
      : '';
  const deleted = f.deletedAt
    ? `<p class="cz-certificate-deleted">${escapeHtml(deletedNotice(f.deletedAt))}</p>`
    : '';
  return (
    `<div class="cz-certificate">` +
    `<h1>电子数据保全证书</h1>` +
    `<table class="cz-certificate-facts"><tbody>${body}</tbody></table>` +
    fields +
    `<p class="cz-certificate-statement">${escapeHtml(statement(kind))}</p>` +
    deleted +
    `</div>`
  );
}
