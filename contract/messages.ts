/**
 * Every user-facing message of the product, in zh-CN.
 * Where the spec gives the Chinese text it is used verbatim; where the spec only paraphrases a message in English,
 * the Chinese wording here is ours (docs/decisions/001-messages.md lists them).
 */
export const Msg = {
  // spec 01 §8 / spec 02 §8: envelope-level
  sessionExpired: '长时间未操作，请重新登录',
  connectionFailed: '连接失败，请检查网络或稍后重试',
  certificateGenerating: '证书生成中',
  notFoundPage: '抱歉，您访问的页面不存在!',
  serverError: '服务器开小差了，请稍后重试',
  tooManyRequests: '操作过于频繁，请稍后再试',
  badRequest: '请求参数错误',
  /** A malformed or missing row id in a call (our wording). */
  invalidId: '参数错误',
  // spec 01 §8 fixed messages
  evidenceUploading: '证据上传中请稍后下载',
  evidenceMissing: '证据缺失不可下载',
  selectEvidenceToDownload: '请选择需要下载的证据',
  noDownloadFiles: '无下载文件',
  passwordsDiffer: '两次新密码不一致',
  newPasswordSameAsOld: '新密码不能与旧密码相同',
  // success messages (spec 01 §8, spec 02 §8)
  passwordChanged: '修改密码成功',
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
  // account flows (not shown in the spec: ours)
  loginFailed: '手机号或密码错误',
  mobileRegistered: '该手机号已注册',
  mobileNotRegistered: '该手机号未注册',
  smsTooFrequent: '验证码发送过于频繁，请一分钟后再试',
  smsSent: '验证码已发送',
  registered: '注册成功',
  passwordReset: '密码重置成功，请登录',
  loggedIn: '登录成功',
  loggedOut: '退出成功',
  // evidence (not shown in the spec: ours)
  fileRequired: '请选择需要保全的文件',
  fileTooLarge: (maxBytes: number) => `文件大小不能超过${formatBytes(maxBytes)}`,
  fileEmpty: '文件内容为空',
  uploadInterrupted: '上传中断，请重新上传',
  evidenceSaved: '保全成功',
  evidenceNotFound: '证据不存在',
  extractCodeWrong: '提取码错误',
  extractCodeRequired: '请输入提取码',
  downloadLinkInvalid: '下载链接无效或已过期',
  // issue 3 evidence kinds and public verification (not shown in the spec: ours)
  evidenceDeleted: '该证据数据已由所有人删除，不可下载',
  evidenceDataDeleted: '已删除该证据数据，保全记录仍保留在账本中',
  evidenceNumberNotFound: '未查询到该保全编号的证据',
  viewTokenInvalid: '查询凭证无效或已过期，请重新查询',
  batchTooMany: (max: number) => `一次最多下载${max}个证据`,
  propertyDataRequired: '请上传CSV或XLSX文件，或填写字段名称和数据',
  propertyBadFileType: '仅支持CSV或XLSX格式的文件',
  propertyXlsUnsupported: '不支持旧版Excel（.xls）文件，请另存为.xlsx或CSV后上传',
  propertyBadEncoding: '无法识别文件编码，请使用UTF-8或GBK编码的CSV文件',
  propertyBadXlsx: 'XLSX文件无法读取，请检查文件是否损坏',
  propertyBadCsv: (line: number) => `CSV格式有误（第${line}行），含逗号、引号或换行的内容请用英文双引号括起`,
  propertyBadJson: '字段或数据格式有误',
  propertyNoFields: '请填写字段名称',
  propertyNoRows: '请至少填写一条数据',
  propertyFieldNameEmpty: (col: number) => `第${col}列的字段名称不能为空`,
  propertyFieldDuplicate: (name: string) => `字段名称“${name}”重复`,
  propertyTooManyFields: (max: number) => `字段不能超过${max}个`,
  propertyTooManyRows: (max: number) => `数据不能超过${max}条`,
  propertyCellTooLong: (row: number, col: number, max: number) =>
    `第${row}行第${col}列的内容不能超过${max}个字符`,
  propertyRagged: (row: number, got: number, want: number) => `第${row}行有${got}项，与字段数${want}不一致`,
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
