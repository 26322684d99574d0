/**
 * The open API for apps and partner systems (spec 02 §2 "API info", §6: AppID and SecurityKey
 * belong to verified enterprises; spec 01 §2.3 the app-capture fields; docs/decisions/038-open-api-signing.md).
 *
 * Every call is signed with the enterprise's SecurityKey: HMAC-SHA256 over {@link stringToSign} — the method, the API
 * path with its query exactly as sent (from `/api/` on: a deployment prefix in front of the gateway is not signed),
 * the timestamp (unix seconds), the nonce and the lower-case hex SHA-256 of the body bytes (of no bytes for GET) —
 * sent base64 in `X-CZ-Signature` with `X-CZ-AppId`, `X-CZ-Timestamp` and `X-CZ-Nonce`. A timestamp more than
 * {@link OPEN_API_MAX_SKEW_SECONDS} from the platform clock, or a nonce the AppID used before, is refused.
 *
 * Answers are the usual envelope `{code, msg, data}`, with the HTTP status equal to `code` (partner systems read the
 * status; the browser API's HTTP 200 convention is for the legacy pages only).
 *
 * The schemas here are plain zod (no preprocess or transform) so that the OpenAPI 3.1 document
 * (server/open-api-document.ts) is generated from them; the platform trims and normalises after parsing.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { SPECIAL_CHARS_RE } from './validators.ts';
import { OPEN_API_MAX_SKEW_SECONDS } from './open-api-codes.ts';

export {
  OPEN_API_DOCUMENT_PATH,
  OPEN_API_MAX_SKEW_SECONDS,
  OPEN_API_PREFIX,
  OpenApiHeaders,
  OpenApiPaths,
  type OpenApiState,
} from './open-api-codes.ts';

/** How long a used nonce is remembered (seconds): longer than the window in which its timestamp is accepted. */
export const OPEN_API_NONCE_TTL_SECONDS = 2 * OPEN_API_MAX_SKEW_SECONDS;
/** A nonce: 16–64 characters of `[A-Za-z0-9_-]`. */
export const OPEN_API_NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;

/** Messages of the open API (our wording: the spec shows none). */
export const OpenApiMsg = {
  unsigned: '缺少签名信息（X-CZ-AppId、X-CZ-Timestamp、X-CZ-Nonce、X-CZ-Signature）',
  badNonce: 'X-CZ-Nonce 须为 16–64 位字母、数字、下划线或连字符',
  expired: '请求已过期，请校准时间后重试',
  badSignature: '签名错误',
  throttled: '签名错误次数过多，请 15 分钟后再试',
  replayed: '请求重复：该 nonce 已使用',
  rotateFirst: '请先在认证信息页重新生成 SecurityKey，再使用开放接口',
  notEnterprise: '仅已认证的企业用户可以使用开放接口',
  octetStream: '请以 application/octet-stream 上传文件内容',
  notFound: '证据不存在',
} as const;

/**
 * The text an open API call signs (UTF-8, fields joined by `\n`, no trailing newline).
 * @param method upper-case HTTP method
 * @param pathWithQuery the path from `/api/` on with its query string exactly as sent
 * @param timestamp unix seconds as sent in X-CZ-Timestamp
 * @param bodySha256 lower-case hex SHA-256 of the body bytes (`e3b0…b855` for none)
 */
export function stringToSign(
  method: string,
  pathWithQuery: string,
  timestamp: string,
  nonce: string,
  bodySha256: string,
): string {
  return [method.toUpperCase(), pathWithQuery, timestamp, nonce, bodySha256].join('\n');
}

/** A short text field: at most `max` characters, none of the forbidden special characters. */
function text(field: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${field}不能超过${max}个字符`)
    .refine((s) => !SPECIAL_CHARS_RE.test(s), `${field}不能包含特殊字符`)
    .optional()
    .meta({ description: `${field}（最多 ${max} 个字符）` });
}

/**
 * The app-capture fields (spec 01 §2.3 `appType`, `configName`, `configModelName`, `configVersion`,
 * `configProcessor`, `configCore`): the forensic type and the device's name, model, system version, processor and
 * kernel. Any of them present makes the evidence app evidence.
 */
export const DeviceFields = z.object({
  appType: text('取证类型', 50),
  configName: text('设备名称', 50),
  configModelName: text('设备型号', 50),
  configVersion: text('系统版本', 50),
  configProcessor: text('处理器', 50),
  configCore: text('内核版本', 50),
});
export type DeviceFields = z.infer<typeof DeviceFields>;

/** Names of {@link DeviceFields}, in the spec's order. */
export const DEVICE_FIELD_NAMES = Object.keys(DeviceFields.shape) as (keyof DeviceFields)[];

/** Query of the file upload: title (default: the file name), label, the file's name, the device fields. */
export const OpenFileQuery = z
  .object({
    title: text('证据名称', 100),
    label: text('标签', 30),
    fileName: text('文件名称', 200),
  })
  .extend(DeviceFields.shape);
export type OpenFileQuery = z.infer<typeof OpenFileQuery>;

/** Body of the hash call: the SHA-256 (64 hex digits), title, label, the file's name and size, device fields. */
export const OpenHashBody = z
  .object({
    hash: z
      .string({ error: '请输入64位十六进制SHA-256哈希值' })
      .regex(/^[0-9a-fA-F]{64}$/, '请输入64位十六进制SHA-256哈希值')
      .meta({ description: '文件的 SHA-256（64 位十六进制）' }),
    title: text('证据名称', 100),
    label: text('标签', 30),
    fileName: text('文件名称', 200),
    fileSize: z.number().int().min(0).optional().meta({ description: '文件大小（字节）' }),
  })
  .extend(DeviceFields.shape);
export type OpenHashBody = z.infer<typeof OpenHashBody>;

/** Kinds of evidence the open API makes. */
export const OpenEvidenceKind = z.enum(['file', 'app', 'hash']);

/** What a save answers: the preservation number, the hashes and where the certificate is. */
export const OpenSaveData = z.object({
  id: z.number().int(),
  baoquan: z.string().meta({ description: '保全号' }),
  kind: OpenEvidenceKind,
  filehash: z.string().meta({ description: '文件 SHA-256' }),
  chainhash: z.string().meta({ description: '账本叶哈希' }),
  certificateUrl: z.string().meta({ description: '证书页面路径（相对本站）' }),
});
export type OpenSaveData = z.infer<typeof OpenSaveData>;

/** One of the caller's evidences as the open API shows it. */
export const OpenEvidenceView = z
  .object({
    baoquan: z.string(),
    kind: z.string(),
    title: z.string(),
    label: z.string(),
    fileName: z.string(),
    fileSize: z.number().int().meta({ description: '字节' }),
    fileType: z.number().int().meta({ description: '1 文档 2 图片 3 音频 4 视频 5 其他' }),
    saveTime: z.string().meta({ description: '北京时间 YYYY-MM-DD HH:mm:ss' }),
    filehash: z.string(),
    chainhash: z.string(),
    leafIndex: z.number().int(),
    deletedAt: z.string().nullable(),
    certificateUrl: z.string(),
  })
  .extend(
    Object.fromEntries(DEVICE_FIELD_NAMES.map((k) => [k, z.string()])) as Record<
      keyof DeviceFields,
      z.ZodString
    >,
  );
export type OpenEvidenceView = z.infer<typeof OpenEvidenceView>;
