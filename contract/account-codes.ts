/**
 * The account area's messages without zod (spec 01 §3 and ours), for the pages that show them without loading the
 * area's schemas (the login page). contract/account.ts re-exports them. No I/O.
 */

/** Messages of the account area beyond the shared `Msg` (our wording where the spec shows none). */
export const AccountMsg = {
  passwordsDiffer: '两次新密码不一致',
  newPasswordSameAsOld: '新密码不能与旧密码相同',
  passwordChanged: '修改密码成功',
  loginFailed: '手机号或密码错误',
  /** A login refused by the failed-attempt throttle: the whole minutes (at least 1) until it opens again. */
  loginLocked: (minutes: number) => `登录失败次数过多，请${minutes}分钟后再试`,
  mobileRegistered: '该手机号已注册',
  mobileNotRegistered: '该手机号未注册',
  smsTooFrequent: '验证码发送过于频繁，请一分钟后再试',
  smsSent: '验证码已发送',
  /** An SMS refused by the hourly/daily quota (per mobile or per client IP): whole minutes (at least 1) to wait. */
  smsLimited: (minutes: number) =>
    minutes >= 60
      ? `验证码发送次数过多，请${Math.ceil(minutes / 60)}小时后再试`
      : `验证码发送次数过多，请${minutes}分钟后再试`,
  /** The SMS provider refused or could not be reached; the code was not sent. */
  smsSendFailed: '短信发送失败，请稍后再试',
  registered: '注册成功',
  passwordReset: '密码重置成功，请登录',
  loggedIn: '登录成功',
  loggedOut: '退出成功',
  oldPasswordWrong: '原密码错误',
  /** Notification written when the password changes (spec 01 §3 News; our wording). */
  passwordChangedNews: '您的登录密码已修改，所有设备需重新登录。如非本人操作，请立即找回密码。',
} as const;
