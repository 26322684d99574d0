/**
 * The envelope plugin: every error becomes `{code, msg, data: null}` (spec 01 §7, §8). Envelope answers use HTTP 200
 * — the legacy clients read the meaning from `code` — except on raw routes (file download) where an ApiError
 * carries its own HTTP status. Unknown paths answer HTTP 404 with code 404.
 *
 * Every answer without a Cache-Control of its route's own gets `no-store`: the API's answers are per user and
 * per moment (a login's bearer token among them, RFC 6749 §5.1, OWASP ASVS 5.0 14.3.2), and the few that may be
 * stored — the region tree, the ledger's tiles, the signing certificate, the home page's figures — declare it.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiCode, fail } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError, requestErrorMessage } from './errors.ts';
import { lingerOnEarlyAnswer } from '../../lib/linger.ts';

/** Registers the error and not-found handlers; `maxUploadBytes` feeds the "file too large" message. */
export const envelopePlugin = fp(
  async (app: FastifyInstance, opts: { maxUploadBytes: number }) => {
    // An answer given before the body was read (a refused upload, the verification gate, an oversize body) keeps its
    // connection a moment so the client reads it, then closes it instead of reading gigabytes (core/linger.ts).
    app.addHook('onSend', async (_request, reply, payload) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
    app.addHook('onSend', async (request, reply, payload) => {
      lingerOnEarlyAnswer(request.raw, reply.raw, (name, value) => reply.header(name, value));
      return payload;
    });
    app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
      if (reply.sent) return;
      if (err instanceof ApiError) {
        return reply.code(err.httpStatus).send(fail(err.code, err.msg));
      }
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
        return reply.code(200).send(fail(ApiCode.PAYLOAD_TOO_LARGE, Msg.fileTooLarge(opts.maxUploadBytes)));
      }
      // A JSON or form body over bodyLimit is no file: say so (docs/decisions/024-gateway-bodies.md).
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply.code(200).send(fail(ApiCode.PAYLOAD_TOO_LARGE, Msg.bodyTooLarge));
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info({ err }, 'bad request');
        return reply.code(200).send(fail(ApiCode.BAD_REQUEST, requestErrorMessage(err)));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(200).send(fail(ApiCode.SERVER_ERROR, Msg.serverError));
    });
    app.setNotFoundHandler((_request, reply) => {
      return reply.code(404).send(fail(ApiCode.NOT_FOUND, Msg.notFoundPage));
    });
  },
  { name: 'cunzheng-envelope' },
);
