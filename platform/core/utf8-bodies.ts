/**
 * The platform's parsers of JSON and form-encoded bodies, strict about UTF-8 (docs/decisions/026-bad-input-and-keys.md).
 * Fastify's own JSON parser and @fastify/formbody decode the body as UTF-8 with replacement, so a GBK-encoded title
 * used to be stored as U+FFFD characters (and a percent-encoded GBK title as the literal `%D6%D0…`). These parsers
 * read the body as bytes (under the instance's `bodyLimit`) and refuse it with ApiError 400 `Msg.notUtf8`
 * (请使用UTF-8编码提交) when:
 * - the bytes are not UTF-8 (`TextDecoder('utf-8', { fatal: true })`), or
 * - for a form body, the bytes its percent escapes stand for are not UTF-8 (`%D6%D0` is GBK, `%E4%B8%AD` is 中):
 *   `node:querystring` decodes those with U+FFFD, and a name or value holding it is refused.
 * Parsing itself stays as before: JSON through Fastify's default parser (prototype-poisoning checks, its empty and
 * invalid body errors, mapped to Chinese by core/errors.ts `requestErrorMessage`); forms through `node:querystring`
 * with no key limit (repeated keys give arrays, `+` is a space), the object @fastify/formbody used to give.
 * Multipart bodies are checked by the intake (files/intake.ts).
 */
import querystring from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError } from './errors.ts';

/** The body as text. @throws ApiError 400 `Msg.notUtf8` when the bytes are not UTF-8 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(ApiCode.BAD_REQUEST, Msg.notUtf8);
  }
}

/**
 * Parses a form-encoded body (`application/x-www-form-urlencoded`).
 * @returns the fields: a string per name, an array for a repeated name
 * @throws ApiError 400 `Msg.notUtf8` when the body or what its percent escapes encode is not UTF-8
 */
export function parseUtf8Form(bytes: Uint8Array): Record<string, string | string[]> {
  const fields = querystring.parse(decodeUtf8(bytes), '&', '=', { maxKeys: 0 });
  // node:querystring decodes an escape sequence that is not UTF-8 with U+FFFD for each bad byte, so the character
  // in a name or value means such a sequence (or a client that percent-encoded U+FFFD itself, the trace of an
  // earlier broken decoding: refused alike).
  for (const [name, value] of Object.entries(fields)) {
    if ([name, ...(Array.isArray(value) ? value : [value ?? ''])].some((v) => v.includes('\uFFFD'))) {
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.notUtf8);
    }
  }
  return fields as Record<string, string | string[]>;
}

/** Registers the two parsers on the root instance (replaces @fastify/formbody and Fastify's JSON parser). */
export const utf8BodiesPlugin = fp(
  async (app: FastifyInstance) => {
    const json = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
        let text: string;
        try {
          text = decodeUtf8(body);
        } catch (err) {
          done(err as ApiError);
          return;
        }
        json(request, text, done);
      },
    );
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (_request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
        try {
          done(null, parseUtf8Form(body));
        } catch (err) {
          done(err as ApiError);
        }
      },
    );
  },
  { name: 'cunzheng-utf8-bodies' },
);
