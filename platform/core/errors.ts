/**
 * ApiError: the one way a handler says "answer this envelope code and message". The envelope plugin turns it into
 * `{code, msg, data: null}` with HTTP 200 (or `httpStatus` where a raw download answers), spec 01 §8.
 */
import type { z } from 'zod';
import { ApiCode, type ApiCodeValue } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';

/** A failure with an envelope code and a user-facing message; handlers throw it, the envelope plugin answers it. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiCodeValue;
  readonly msg: string;
  readonly httpStatus: number;
  /**
   * @param code envelope code (400 bad input, 404 not found, 408 log in again, 413 too large, 429 too many, …)
   * @param msg user-facing zh-CN message from contract `Msg`
   * @param httpStatus HTTP status of the answer; 200 for every envelope call, other values only on raw routes
   */
  constructor(code: ApiCodeValue, msg: string, httpStatus = 200) {
    super(msg);
    this.code = code;
    this.msg = msg;
    this.httpStatus = httpStatus;
  }
}

/**
 * Validates `value` with a contract schema.
 * @returns the parsed value
 * @throws ApiError(400, first issue's message) — the contract schemas carry the spec's messages (spec 02 §5)
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ApiError(ApiCode.BAD_REQUEST, issue?.message ?? '参数错误');
  }
  return r.data;
}

/**
 * The Chinese message of a 4xx error Fastify or one of its plugins raised before a handler ran (docs/decisions/
 * 026-bad-input-and-keys.md): a content type no parser takes (415), a JSON body that does not parse or is empty, a
 * non-multipart body on an upload call or a multipart body over its part limits; any other 4xx gets
 * `Msg.badRequest`. Their own messages are English and never reach a user.
 * @param err a Fastify error (`code` like `FST_ERR_CTP_INVALID_MEDIA_TYPE`)
 * @returns the zh-CN message of the 400 envelope
 */
export function requestErrorMessage(err: { code?: string }): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return Msg.unsupportedMediaType;
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return Msg.invalidJson;
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return Msg.tooManyParts;
    default:
      return Msg.badRequest;
  }
}
