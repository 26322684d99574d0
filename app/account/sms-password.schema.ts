/** Schema choice of the /register and /forgetpwd form, by the pressed button (`intent`); shared by client and action. */
import { z } from 'zod';
import { PasswordConfirmForm, SendSmsBody } from '../../contract/account.ts';

/** 换一张 (a new captcha) validates nothing: it only keeps what was typed. */
const CaptchaRefresh = z.object({}).loose();

export function schemaFor(intent: FormDataEntryValue | null) {
  if (intent === 'captcha') return CaptchaRefresh;
  return intent === 'sendSms' ? SendSmsBody : PasswordConfirmForm;
}
