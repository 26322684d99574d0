/**
 * Labels of the notary office's console pages (zh-CN, ours; docs/decisions/034-notary.md): an
 * order's state as the office reads it, the steps an order can be sent back to, the stored documents' names, and
 * dates as a notarial certificate writes them (二〇二六年一月五日). No I/O.
 */
import {
  NOTARIAL_CERTIFICATE_TYPE,
  NOTARIAL_TEXT,
  NOTARY_DOCUMENTS,
  type NotarialCode,
  NotaryStep,
  type NotaryStepCode,
  STEP_TEXT,
} from '../../../contract/notary-codes.ts';

/**
 * What the office does with an order next: its issuance state once it has one, else 待受理 when the user has done
 * every step, else the step the user still has to do (an order sent back for more material).
 */
export function officeStateLabel(o: { step: NotaryStepCode; notarial: NotarialCode | null }): string {
  if (o.notarial !== null) return NOTARIAL_TEXT[o.notarial];
  if (o.step === NotaryStep.done) return '待受理';
  return `待用户补充：${STEP_TEXT[o.step]}`;
}

/** The steps an order can be sent back to for more material (contract NotaryReturnBody: 1–3). */
export const RETURN_STEPS = [
  { step: NotaryStep.applicationForm, label: '申请材料' },
  { step: NotaryStep.signature, label: '在线签名' },
  { step: NotaryStep.deCode, label: '数据解密' },
] as const;

/** The name of a stored document by its type: the four signed documents, or 5 the notarial certificate. */
export function documentName(type: number): string {
  if (type === NOTARIAL_CERTIFICATE_TYPE) return '公证书';
  return NOTARY_DOCUMENTS.find((d) => d.type === type)?.name ?? `文书${type}`;
}

const DIGITS = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'] as const;

/** 1–31 in Chinese numerals as dates write them: 五, 十, 十二, 二十, 二十一, 三十一. */
function smallNumber(n: number): string {
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  const head = tens === 0 ? '' : tens === 1 ? '十' : `${DIGITS[tens]}十`;
  return ones === 0 && tens > 0 ? head : `${head}${DIGITS[ones]}`;
}

/**
 * A date "YYYY-MM-DD…" (the platform's Beijing times) in Chinese numerals, as a notarial certificate writes it:
 * "2026-01-05 09:30:00" → 二〇二六年一月五日. Anything not starting with a date is returned as it is.
 */
export function chineseDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  const year = [...m[1]!].map((d) => DIGITS[Number(d)]).join('');
  return `${year}年${smallNumber(Number(m[2]))}月${smallNumber(Number(m[3]))}日`;
}
