/**
 * The verification gate (spec 02 §4) without zod, for the evidence pages that show it: the envelope code and message
 * an unverified user gets on saving evidence. contract/kyc.ts re-exports both. No I/O.
 */
import { ApiCode } from './envelope.ts';

/** The gate's envelope code. */
export const KYC_REQUIRED_CODE = ApiCode.KYC_REQUIRED;

/** The gate's message (spec 02 §4), also `KycMsg.kycRequired`. */
export const KycGateMsg = {
  required: '您的账号尚未完成实名认证，请先完成实名认证后再使用数据保全服务',
} as const;
