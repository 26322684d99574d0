/**
 * The shared validators' own messages (contract/validators.ts re-exports them), without zod, so that a page can show
 * them (through `KycMsg`) without loading the validators' schemas (decision 031: first-load JS). No I/O.
 */

/**
 * Messages of the validators (contract/validators.ts) that are not in `Msg` (zh-CN). The spec paraphrases them in
 * English (spec 02 §5 personal: 'enter correct format', 'please fill in ID number', 'enter Chinese characters not
 * exceeding 16'); the others are ours (docs/decisions/010-kyc-foundations.md).
 */
export const ValidatorMsg = {
  /** Spec 02 §5 personal: 'enter Chinese characters not exceeding 16'. */
  nameChinese: '请输入不超过16个字的中文姓名',
  /** Spec 02 §5 shared validator "Chinese name: 2-6 characters" (ours). */
  shortNameChinese: '请输入2-6个字的中文姓名',
  /** Spec 02 §5 personal: 'enter correct format' (ID number; also a wrong check digit or birth date). */
  idCardInvalid: '请输入正确格式的身份证号码',
  /** Spec 02 §5 personal: 'please fill in ID number'. */
  idCardRequired: '请填写身份证号码',
  // not shown in the spec: ours
  creditCodeInvalid: '请输入正确的统一社会信用代码',
  bankNoInvalid: '请输入8-25位数字的银行账号',
  birthDateInvalid: '请输入正确的出生日期（YYYY-MM-DD）',
} as const;
