/**
 * The messages every area shares, in zh-CN: envelope-level answers, the shared validators (spec 02 §5), success
 * notices and upload limits. Each area's own messages live in its contract module (`AccountMsg` in account.ts,
 * `EvidenceMsg` in evidence.ts, …). Where the spec gives the Chinese text it is used verbatim; where the spec only paraphrases a message in English,
 * the Chinese wording here is ours (docs/decisions/001-messages.md lists them).
 */
export const Msg = {
  // spec 01 §8 / spec 02 §8: envelope-level
  sessionExpired: '长时间未操作，请重新登录',
  connectionFailed: '连接失败，请检查网络或稍后重试',
  notFoundPage: '抱歉，您访问的页面不存在!',
  serverError: '服务器开小差了，请稍后重试',
  tooManyRequests: '操作过于频繁，请稍后再试',
  badRequest: '请求参数错误',
  /** A malformed or missing row id in a call (our wording). */
  invalidId: '参数错误',
  // bad request bodies (ours, docs/decisions/026-bad-input-and-keys.md)
  /** A text value (form field, JSON string, multipart part or file name) whose bytes are not UTF-8, e.g. GBK. */
  notUtf8: '请使用UTF-8编码提交',
  /** A body of a content type the call does not take (e.g. text/xml). */
  unsupportedMediaType: '不支持的请求内容类型',
  /** A JSON body that does not parse, or is empty. */
  invalidJson: '请求内容不是有效的JSON格式',
  /** A multipart body with more parts, files or fields than the call takes. */
  tooManyParts: '上传的文件或字段过多',
  // success messages (spec 01 §8, spec 02 §8)
  copied: '复制成功',
  added: '添加成功',
  modified: '修改成功',
  submitted: '提交成功',
  // spec 02 §5 shared validators (Chinese wording ours where the spec paraphrases)
  required: (field: string) => `${field}不能为空`,
  mobileInvalid: '请输入正确的手机号',
  passwordRule: '请输入6-18位字母和数字组合的密码',
  imgCodeInvalid: '图形验证码不正确',
  smsCodeInvalid: '短信验证码错误，请重新输入',
  specialChars: (field: string) => `${field}不能包含特殊字符`,
  tooLong: (field: string, max: number) => `${field}不能超过${max}个字符`,
  // uploads of any area (ours)
  fileTooLarge: (maxBytes: number) => `文件大小不能超过${formatBytes(maxBytes)}`,
  fileEmpty: '文件内容为空',
  uploadInterrupted: '上传中断，请重新上传',
  // request bodies (ours, docs/decisions/024-gateway-bodies.md)
  /** A JSON or form body over the platform's or the gateway's limit. */
  bodyTooLarge: '请求内容过大，请删减后重试',
  /** A page POST whose body is neither a form nor a multipart upload. */
  unsupportedBody: '不支持的提交格式，请通过页面表单提交',
  /** A multipart body that cannot be parsed (cut off or garbled). */
  brokenForm: '提交内容不完整，请刷新页面后重新提交',
} as const;

/** Formats a byte count for messages: 2147483648 → "2GB", 10485760 → "10MB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${units[i]}`;
}
