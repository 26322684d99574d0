/**
 * The promotion-code area's values without zod (兑换码; docs/decisions/062-promotion-codes.md): its paths, messages,
 * limits, the code alphabet with the normalisation and display of a code, and its answer types — what the pages
 * import for values without loading the area's schemas (contract/promo.ts re-exports all of it). Points are whole
 * numbers, times unix seconds or Beijing-time text. No I/O.
 */
import type { OpsRole } from './ops.ts';

/** The console role that mints, reads and disables batches (decision 062; decision 015). */
export const PROMO_OPS_ROLE: OpsRole = 'finance';
/** The area name of the console queue and of its audit entries. */
export const PROMO_AREA = 'promo';
/** The points source kind of a redemption (decision 057), credited with {@link PromoMsg.sourceLabel}. */
export const PROMO_SOURCE_KIND = 'promo';

/** The characters of a code: digits and capitals without 0, 1, I, L and O, which read alike (31 characters). */
export const PROMO_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters of a code; shown in groups of {@link PROMO_CODE_GROUP}. */
export const PROMO_CODE_LENGTH = 16;
/** Characters per group of a shown code (`XXXX-XXXX-XXXX-XXXX`). */
export const PROMO_CODE_GROUP = 4;
/** A stored (normalised) code. */
export const PROMO_CODE_RE = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{16}$/;
/** The longest text the redeem field takes before normalisation, characters (16 plus separators and blanks). */
export const PROMO_CODE_INPUT_MAX = 40;

/** Points one redemption credits: 1–50000, the custom recharge's bounds (decision 062). */
export const MIN_PROMO_POINTS = 1;
export const MAX_PROMO_POINTS = 50_000;
/** Codes of one batch: 1–1000. */
export const MIN_PROMO_CODES = 1;
export const MAX_PROMO_CODES = 1000;
/** Redemptions of one code (each by a different user): 1 single-use, up to 10000 limited-use. */
export const MIN_PROMO_USES = 1;
export const MAX_PROMO_USES = 10_000;
/** The latest expiry day, days after today (Beijing time). */
export const MAX_PROMO_DAYS = 3660;
/** Batch name and remark, characters. */
export const MAX_PROMO_NAME = 50;
export const MAX_PROMO_REMARK = 200;
/** Wrong codes a user may enter per window before /redeem refuses (platform/core/attempts.ts). */
export const PROMO_ATTEMPTS_MAX = 10;
/** The window of {@link PROMO_ATTEMPTS_MAX}, seconds. */
export const PROMO_ATTEMPTS_WINDOW_SECONDS = 900;

/** Messages of the area (zh-CN, ours; decision 062). */
export const PromoMsg = {
  /** The points source's label on /points (积分明细). */
  sourceLabel: '兑换码',
  codeRequired: '请输入兑换码',
  codeUnknown: '兑换码不存在，请核对后重新输入',
  codeExpired: '兑换码已过期',
  batchDisabled: '兑换码已停用',
  usedUp: '兑换码已被使用',
  alreadyRedeemed: '您已使用过该兑换码',
  throttled: '兑换码输入错误次数过多，请15分钟后再试',
  /** The redeem answer's msg and the page's notice after it (PRG). */
  redeemed: (points: number) => `兑换成功，已获得 ${points} 积分`,
  nameRequired: '请填写批次名称',
  nameTooLong: `批次名称不能超过${MAX_PROMO_NAME}个字符`,
  remarkTooLong: `备注不能超过${MAX_PROMO_REMARK}个字符`,
  specialChars: '批次名称和备注不能包含特殊字符',
  pointsRequired: '请填写每次兑换积分',
  pointsDigits: '每次兑换积分只能填写数字0-9，不能含小数点、正负号、字母或空格',
  pointsRange: `每次兑换积分须为${MIN_PROMO_POINTS}-${MAX_PROMO_POINTS}的整数`,
  countRequired: '请填写兑换码数量',
  countDigits: '兑换码数量只能填写数字0-9',
  countRange: `兑换码数量须为${MIN_PROMO_CODES}-${MAX_PROMO_CODES}的整数`,
  usesRequired: '请填写每码可用次数',
  usesDigits: '每码可用次数只能填写数字0-9',
  usesRange: `每码可用次数须为${MIN_PROMO_USES}-${MAX_PROMO_USES}的整数`,
  expiryRequired: '请选择有效期至',
  expiryInvalid: '有效期至须为YYYY-MM-DD格式的日期',
  expiryPast: '有效期至不能早于今天',
  expiryTooFar: '有效期至不能超过10年',
  minted: '兑换码已生成',
  disabled: '批次已停用',
  alreadyDisabled: '批次已停用，无需重复操作',
  batchNotFound: '批次不存在',
} as const;

/** The user's call (bearer token; the /buyCredits gate: any logged-in user, spec 02 §2). */
export const PromoPaths = {
  /** `POST {code}` → {@link RedeemData}, msg {@link PromoMsg.redeemed}. */
  redeem: '/api/promo/redeem',
} as const;

/** The user's page (兑换码兑换). */
export const PromoPages = { redeem: '/redeem' } as const;

/** The console's calls ({@link PROMO_OPS_ROLE}; 403 无权访问 without it). Every call is audited. */
export const PromoOpsPaths = {
  /** `GET {page}` → {@link PromoBatchListData}, newest first, 20 a page. */
  batches: '/api/ops/promo/batches',
  /** `GET {id}` → {@link PromoBatchDetail}: the batch with every code, its uses and limit. */
  batch: '/api/ops/promo/batch',
  /** `POST` MintBatchBody → {@link PromoBatchDetail}, msg {@link PromoMsg.minted}. */
  mint: '/api/ops/promo/mint',
  /** `POST {id}` → {@link PromoBatchDetail}, msg {@link PromoMsg.disabled}: no code of it redeems any more. */
  disable: '/api/ops/promo/disable',
} as const;

/** The console's pages. */
export const PromoOpsPages = { batches: '/ops/promo', batch: (id: number) => `/ops/promo/${id}` } as const;

/**
 * What a user typed, as codes are stored: blanks around and inside and dashes (`-`, typographic and full-width)
 * dropped, letters upper-cased. Any string in;
 * the result may still be no code ({@link PROMO_CODE_RE} says).
 */
export function normalizePromoCode(input: string): string {
  return input.replace(/[\s\-\u2010-\u2015\u2212\u3000\uff0d]+/g, '').toUpperCase();
}

/** A stored code as shown: groups of {@link PROMO_CODE_GROUP} joined by `-` (`ABCD-EFGH-JKMN-PQRS`). */
export function formatPromoCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += PROMO_CODE_GROUP) groups.push(code.slice(i, i + PROMO_CODE_GROUP));
  return groups.join('-');
}

/** `redeem` answer. */
export interface RedeemData {
  /** Points this redemption credited. */
  points: number;
  /** The balance after it, points. */
  balance: number;
}

/** State of a batch as the console shows it. */
export type PromoBatchState = 'active' | 'expired' | 'disabled';
/** zh-CN texts of {@link PromoBatchState}. */
export const PROMO_BATCH_STATE_TEXT: Readonly<Record<PromoBatchState, string>> = {
  active: '有效',
  expired: '已过期',
  disabled: '已停用',
};

/** A batch in the console's list. */
export interface PromoBatchRow {
  id: number;
  name: string;
  remark: string;
  /** Points one redemption credits. */
  points: number;
  /** Codes in the batch. */
  codeCount: number;
  /** Redemptions allowed per code (1 single-use). */
  usesPerCode: number;
  /** Redemptions made, all codes together. */
  redeemed: number;
  /** The last day a code redeems, `YYYY-MM-DD` (Beijing). */
  expiresOn: string;
  state: PromoBatchState;
  /** The operator who minted it. */
  createdBy: string;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  createdAt: string;
  /** When it was disabled, same format; '' while not. */
  disabledAt: string;
}

/** `batches` answer. */
export interface PromoBatchListData {
  list: PromoBatchRow[];
  count: number;
}

/** One code of a batch, as finance sees it. */
export interface PromoCodeRow {
  id: number;
  /** Shown form, `XXXX-XXXX-XXXX-XXXX`. */
  code: string;
  uses: number;
  maxUses: number;
}

/** `batch`, `mint` and `disable` answer. */
export interface PromoBatchDetail {
  batch: PromoBatchRow;
  codes: PromoCodeRow[];
}
