/**
 * The /api response envelope shared by every call (spec 01 §7, §8; spec 02 §7, §8).
 * Every response is `{ code, msg, data }`; code 200 (number or the text "200") means success.
 */
export interface ApiEnvelope<T = unknown> {
  code: number | string;
  msg: string;
  data: T;
}

/** Envelope codes this platform answers with. 408 means "log in again" (spec 01 §8). */
export const ApiCode = {
  OK: 200,
  /** Face certification still open: keep polling (spec 02 §4 face flow; contract FACE_PENDING_CODE). */
  PENDING: 202,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SESSION_EXPIRED: 408,
  /** Real-name verification required first (decision 011 gate; contract KYC_REQUIRED_CODE). */
  KYC_REQUIRED: 412,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
} as const;
export type ApiCodeValue = (typeof ApiCode)[keyof typeof ApiCode];

/** True when an envelope code means success: 200 as a number or as text (spec 01 §8). */
export function isSuccess(code: number | string): boolean {
  return Number(code) === ApiCode.OK;
}

/** True when the code means the session is gone: 408 anywhere, 403 off the home path (spec 01 §8). */
export function isSessionExpired(code: number | string, path: string): boolean {
  const n = Number(code);
  return n === ApiCode.SESSION_EXPIRED || (n === ApiCode.FORBIDDEN && path !== '/' && path !== '/home');
}

/** Builds a success envelope. */
export function ok<T>(data: T, msg = '操作成功'): ApiEnvelope<T> {
  return { code: ApiCode.OK, msg, data };
}

/** Builds a failure envelope with `data: null`. */
export function fail(code: ApiCodeValue, msg: string): ApiEnvelope<null> {
  return { code, msg, data: null };
}

/**
 * Most bytes of a JSON or form-encoded `/api` body (1 MiB). The platform refuses a larger one with code 413
 * `Msg.bodyTooLarge` (its Fastify `bodyLimit`), and the gateway refuses one whose `Content-Length` says so before
 * forwarding a byte of it (docs/decisions/024-gateway-bodies.md). Files travel as multipart streams, not bounded here.
 */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;
