/**
 * The verification gate on the evidence pages (decision 011 "The gate"): the platform refuses saving evidence (code 412,
 * KycGateMsg.required) unless userStatus is 3; the pages also say so up front, with the 去认证 link.
 */
import type { AppLoadContext } from 'react-router';
import { type ApiEnvelope, isSuccess } from '../../contract/envelope.ts';
import { KYC_REQUIRED_CODE, UserStatus } from '../../contract/kyc.ts';
import { requireUserInfo } from '../lib/auth.server.ts';
import { tipHref } from './kyc-links.ts';

/** Where 去认证 leads for this user, or null when the user is verified (no gate). */
export async function kycGateHref(request: Request, ctx: AppLoadContext): Promise<string | null> {
  const res = await requireUserInfo(request, ctx);
  if (!isSuccess(res.code)) return null;
  return res.data.userStatus === UserStatus.verified ? null : tipHref(res.data);
}

/** True when the platform refused a save because the user is not verified. */
export function isKycRefusal(res: ApiEnvelope<unknown>): boolean {
  return Number(res.code) === KYC_REQUIRED_CODE;
}
