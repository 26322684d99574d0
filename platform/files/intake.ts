/**
 * The one multipart intake every upload route uses (decision 016): text parts collected, file parts streamed into
 * the temp area (files/temp.ts) under the route's limits, and every failure mapped the same way:
 * - a file over `limits.fileSize` (busboy stops at the limit and marks it truncated) → ApiError 413 with the route's
 *   "too large" message (the spec's where it has one, e.g. 上传签章图片大小不能超过 10MB!);
 * - a body cut off by the client, or one busboy cannot parse (garbage, a missing closing boundary, a broken part
 *   header: busboy's plain `Error`s) → ApiError 400 `Msg.uploadInterrupted` (it is logged);
 * - a text part or a file name that was not UTF-8 (busboy decodes both as UTF-8 and puts U+FFFD for every invalid
 *   sequence, so the character stands for bytes we cannot read, e.g. a GBK title) → ApiError 400 `Msg.notUtf8`;
 * - anything else (too many parts: @fastify/multipart's coded 4xx errors; a full disk) propagates to the envelope
 *   plugin, which maps the 4xx ones to Chinese messages (core/errors.ts `requestErrorMessage`).
 * On every error path the temp files received so far are deleted before the error leaves; on success the caller
 * owns them and calls {@link Intake.discard} in a `finally` (a file moved into storage is simply gone by then).
 */
import type { FastifyRequest } from 'fastify';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError } from '../core/errors.ts';
import { discardTemp, receiveToTemp, type ReceivedFile } from './temp.ts';

/** busboy's limits of one intake (sizes in bytes). */
export interface IntakeLimits {
  /** Largest file part. */
  fileSize: number;
  /** Most file parts. */
  files: number;
  /** Most text parts. */
  fields: number;
  /** Largest text part. */
  fieldSize: number;
  /** Most parts in all. */
  parts: number;
}

/** Options of {@link receiveMultipart}. */
export interface IntakeOptions {
  limits: IntakeLimits;
  /** Message of the 413 answer when a file is over `limits.fileSize`. */
  tooLarge: string;
  /**
   * Which file parts to keep (`fileName` as the client sent it, '' when it sent none — a form submitted without
   * choosing a file). Others are drained unread. Default: every part. A repeated field keeps its first file.
   */
  accept?(field: string, fileName: string): boolean;
}

/** A received file part: the temp file and the part's field and file name as sent. */
export interface IntakeFile extends ReceivedFile {
  field: string;
  fileName: string;
}

/** What an intake received. */
export interface Intake {
  /** Text parts by name (the last one wins). */
  fields: Record<string, string>;
  /** File parts in arrival order, one per field. */
  files: IntakeFile[];
  /** Deletes every temp file of the intake that is still there. Never throws. */
  discard(): Promise<void>;
}

/**
 * True for the errors busboy raises on a body it cannot parse ('Unexpected end of multipart data', 'Malformed part
 * header', 'Part terminated early', …): plain `Error`s without a code, unlike the coded errors of @fastify/multipart
 * and of the file system, and unlike programming errors (TypeError and the like).
 */
function isMalformedBody(err: unknown): boolean {
  return (
    err instanceof Error &&
    Object.getPrototypeOf(err) === Error.prototype &&
    (err as { code?: unknown }).code === undefined
  );
}

/** Maps a multipart stream failure to the intake's envelope answer (see the module comment) or returns it as is. */
function intakeFailure(request: FastifyRequest, err: unknown, tooLarge: string): unknown {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(ApiCode.PAYLOAD_TOO_LARGE, tooLarge);
  if (code === 'FST_MP_PREMATURE_CLOSE' || !request.raw.complete) {
    request.log.info({ err }, 'upload cut off by the client; nothing kept');
    return new ApiError(ApiCode.BAD_REQUEST, Msg.uploadInterrupted);
  }
  if (isMalformedBody(err)) {
    request.log.info({ err: (err as Error).message }, 'malformed multipart body; nothing kept');
    return new ApiError(ApiCode.BAD_REQUEST, Msg.uploadInterrupted);
  }
  return err;
}

/** Refuses a text part or file name that held bytes which are not UTF-8 (see the module comment). */
function assertUtf8(text: string): void {
  if (text.includes('\uFFFD')) throw new ApiError(ApiCode.BAD_REQUEST, Msg.notUtf8);
}

/**
 * Reads the multipart body of `request` into `tmpDir` (see the module comment).
 * @returns the text parts and the received files
 * @throws ApiError 413 `opts.tooLarge`, ApiError 400 `Msg.uploadInterrupted` or `Msg.notUtf8`, or the coded errors
 *   of @fastify/multipart (too many parts, not multipart)
 */
export async function receiveMultipart(
  request: FastifyRequest,
  tmpDir: string,
  opts: IntakeOptions,
): Promise<Intake> {
  const files: IntakeFile[] = [];
  const intake: Intake = {
    fields: {},
    files,
    discard: async () => {
      await Promise.all(files.map((f) => discardTemp(f)));
    },
  };
  try {
    for await (const part of request.parts({ limits: opts.limits })) {
      if (part.type === 'file') {
        const fileName = part.filename ?? '';
        assertUtf8(fileName);
        const keep = opts.accept?.(part.fieldname, fileName) ?? true;
        if (!keep || files.some((f) => f.field === part.fieldname)) {
          part.file.resume();
          continue;
        }
        const received = await receiveToTemp(part.file, tmpDir);
        files.push({ ...received, field: part.fieldname, fileName });
        // busboy stops at the limit and marks the stream truncated: what we hold is not the whole file
        if (part.file.truncated) throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, opts.tooLarge);
      } else if (typeof part.value === 'string') {
        assertUtf8(part.fieldname);
        assertUtf8(part.value);
        intake.fields[part.fieldname] = part.value;
      }
    }
    return intake;
  } catch (err) {
    await intake.discard();
    throw intakeFailure(request, err, opts.tooLarge);
  }
}
