/**
 * The account area's contract: captcha, SMS, register, login, reset password, user info, logout, and the settings
 * page's password and extraction-code changes (spec 01 §2.5, §5, §7; spec 02 "Session", §5, §7). Paths and field
 * names as the spec gives them. Bodies are form-encoded or JSON; both parse the same.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { AccountMsg } from './account-codes.ts';
import {
  freeText,
  imgCode,
  loginPassword,
  mobile,
  password,
  passwordField,
  requiredText,
  smsCode,
} from './validators.ts';

export const AccountPaths = {
  imgCode: '/api/Register/getImgCode',
  sendSms: '/api/Register/sendSMS',
  sendResetSms: '/api/Register/sendResetSMS',
  register: '/api/Register',
  resetPassword: '/api/login/resetPassword',
  login: '/api/login',
  authInfo: '/api/user/getAuthInfo',
  logout: '/api/user/logout',
  /** `POST {oldPassword, password, confirmPassword}` → null, msg 修改密码成功; revokes every token of the user. */
  editPassword: '/api/user/editPassword',
  /** `POST {extractCode}` → `{extractCode}`, msg 修改成功; the old code stops working at once. */
  editExtractCode: '/api/user/editExtractCode',
} as const;

export { AccountMsg };

/** `POST /api/Register/getImgCode` → `{ key, img }`: `img` is an SVG data URI; `key` identifies the answer. */
export interface ImgCodeData {
  key: string;
  img: string;
}

/** `POST /api/Register/sendSMS` and `/sendResetSMS`: the image captcha guards the SMS. */
export const SendSmsBody = z.object({
  mobile,
  imgKey: requiredText('图形验证码'),
  imgCode,
});
export type SendSmsBody = z.infer<typeof SendSmsBody>;

/** `POST /api/Register` and `POST /api/login/resetPassword`. */
export const RegisterBody = z.object({ mobile, password, smsCode });
export type RegisterBody = z.infer<typeof RegisterBody>;
export const ResetPasswordBody = RegisterBody;

/** `POST /api/login`. */
export const LoginBody = z.object({ mobile, password: loginPassword });
export type LoginBody = z.infer<typeof LoginBody>;

/** Registration and reset forms add a confirmation field the API does not need. */
export const PasswordConfirmForm = RegisterBody.extend({
  confirmPassword: requiredText('确认密码'),
}).refine((v) => v.password === v.confirmPassword, {
  message: '两次输入的密码不一致',
  path: ['confirmPassword'],
});

/**
 * User info (spec 02 §3 KycInfo, the fields this slice uses). Strings where the legacy API used strings.
 * userStatus: '1' not verified, '2' under review, '3' verified, '4' failed (spec 02 §4).
 * status: account type 1 personal, 2 enterprise, 0 none. authType: 1 photo, 3 face.
 */
export interface UserInfo {
  mobile: string;
  userName: string;
  userStatus: '1' | '2' | '3' | '4';
  status: 0 | 1 | 2;
  authType: 0 | 1 | 3;
  /** Points balance (integer points). */
  points: number;
  /** Unread notification count (the top bar caps the badge at 99). */
  newsNum: number;
  /** The extraction code others use to download this user's evidence (spec 01 §2.5), at most 30 characters. */
  extractCode: string;
  checkRemark: string;
}

/** `POST /api/login` → `{ token, userInfo }`. `expiresIn` is the token lifetime in seconds. */
export interface LoginData {
  token: string;
  expiresIn: number;
  userInfo: UserInfo;
}

/** Extraction code: required, at most 30 characters, no forbidden special characters (spec 01 §5). */
export const ExtractCodeBody = z.object({ extractCode: freeText('提取码', 30, true) });

/** Change password (spec 01 §5): all required; new = repeated; new ≠ old; new follows the password rule. */
export const EditPasswordBody = z
  .object({
    oldPassword: requiredText('原密码'),
    password: passwordField('新密码'),
    confirmPassword: requiredText('确认新密码'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AccountMsg.passwordsDiffer,
    path: ['confirmPassword'],
  })
  .refine((v) => v.password !== v.oldPassword, {
    message: AccountMsg.newPasswordSameAsOld,
    path: ['password'],
  });
