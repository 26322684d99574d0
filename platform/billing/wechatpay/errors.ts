/**
 * The errors of the WeChat Pay client (client.ts): what kind of failure a call met, and the mapping of what the SDK
 * (axios) throws to them. A signature failure never lets an answer's content through.
 */

/**
 * Why a call failed:
 * - 'transport': no HTTP answer (network, timeout, provider down): retry later;
 * - 'signature': a 2xx answer whose Wechatpay-* headers are missing, whose timestamp is off by more than 300 s, whose
 *   serial is unknown, or whose signature does not verify — never trust its content;
 * - 'response': a verified answer that is not the documented JSON;
 * - 'rejected': the provider answered 4xx/5xx; `status`, `code` and `providerMessage` carry its reason (e.g. 401
 *   SIGN_ERROR when our request signature is wrong, 404 ORDER_NOT_EXIST, 400 ORDERPAID). Error answers are not
 *   signature-checked (the SDK skips non-2xx answers; WeChat Pay does not sign a 401): never change money on a
 *   rejection alone — query the order (a verified answer) before crediting or giving up.
 */
export type WechatPayErrorKind = 'transport' | 'signature' | 'response' | 'rejected';

/** What a {@link WechatPayError} knows of the failed call, and its cause. */
export type WechatPayErrorDetails = {
  operation: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** The provider's error code (e.g. 'ORDER_NOT_EXIST'), or the SDK's check that failed for 'signature'. */
  code?: string;
  /** The provider's error message. */
  providerMessage?: string;
} & ErrorOptions;

/** The error every method of {@link WechatPayV3Client} throws. */
export class WechatPayError extends Error {
  override readonly name = 'WechatPayError';
  readonly kind: WechatPayErrorKind;
  readonly details: WechatPayErrorDetails;
  constructor(kind: WechatPayErrorKind, message: string, details: WechatPayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.details = details;
  }
  /** The provider's error code when it answered 4xx/5xx (e.g. 'SIGN_ERROR'). */
  get code(): string | undefined {
    return this.details.code;
  }
  /** The HTTP status, when there was an answer. */
  get status(): number | undefined {
    return this.details.status;
  }
}

/** The SDK's codes for a 2xx response that failed its signature checks (lib/decorator.js responseVerifier). */
const SDK_VERIFY_CODES = new Set([
  'EV3_RES_HEADERS_INCOMPLATE',
  'EV3_RES_HEADER_TIMESTAMP_OFFSET',
  'EV3_RES_HEADER_PLATFORM_SERIAL',
  'EV3_RES_HEADER_SIGNATURE_DIGEST',
]);

/** The parts of an AxiosError we read (the SDK rejects with AxiosError). */
interface AxiosLikeError {
  code?: string;
  message?: string;
  response?: { status?: number; data?: unknown };
}

export function badAnswer(operation: string): WechatPayError {
  return new WechatPayError('response', `WeChat Pay ${operation}: unexpected answer`, { operation });
}

/** Maps what the SDK (axios) threw to a WechatPayError; see {@link WechatPayErrorKind}. */
export function toWechatPayError(operation: string, err: unknown): WechatPayError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as AxiosLikeError;
  const status = e.response?.status;
  if (e.code && SDK_VERIFY_CODES.has(e.code)) {
    return new WechatPayError(
      'signature',
      `WeChat Pay ${operation}: response signature check failed (${e.code})`,
      {
        operation,
        code: e.code,
        ...(status !== undefined ? { status } : {}),
        cause: err,
      },
    );
  }
  if (status === undefined) {
    return new WechatPayError('transport', `WeChat Pay ${operation}: no answer (${e.code ?? 'error'})`, {
      operation,
      cause: err,
    });
  }
  const data = e.response?.data;
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const code = typeof body.code === 'string' ? body.code : `HTTP_${status}`;
  const providerMessage = typeof body.message === 'string' ? body.message : undefined;
  return new WechatPayError('rejected', `WeChat Pay ${operation}: ${status} ${code}`, {
    operation,
    status,
    code,
    ...(providerMessage !== undefined ? { providerMessage } : {}),
    cause: err,
  });
}
