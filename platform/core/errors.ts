/**
 * ApiError: the one way a handler says "answer this envelope code and message". The envelope plugin turns it into
 * `{code, msg, data: null}` with HTTP 200 (or `httpStatus` where a raw download answers), spec 01 §8.
 */
import type { z } from 'zod';
import { ApiCode, type ApiCodeValue } from '../../contract/envelope.ts';

/** A failure with an envelope code and a user-facing message; handlers throw it, the envelope plugin answers it. */
export class ApiError extends Error {
  override name = 'ApiError';
  /**
   * @param code envelope code (400 bad input, 404 not found, 408 log in again, 413 too large, 429 too many, …)
   * @param msg user-facing zh-CN message from contract `Msg`
   * @param httpStatus HTTP status of the answer; 200 for every envelope call, other values only on raw routes
   */
  constructor(
    readonly code: ApiCodeValue,
    readonly msg: string,
    readonly httpStatus = 200,
  ) {
    super(msg);
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
