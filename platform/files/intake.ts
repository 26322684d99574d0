/**
 * The one multipart intake every upload route uses (decision 016): text parts collected, file parts streamed into
 * the temp area (files/temp.ts) under the route's limits, and every failure mapped the same way:
 * - a file over `limits.fileSize` (busboy stops at the limit and marks it truncated) → ApiError 413 with the route's
 *   "too large" message (the spec's where it has one, e.g. 上传签章图片大小不能超过 10MB!);
 * - a body cut off by the client → ApiError 400 `Msg.uploadInterrupted` (nobody may be listening; it is logged);
 * - anything else (too many parts, malformed body) propagates to the envelope plugin.
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

/** Maps a multipart stream failure to the intake's envelope answer (see the module comment) or returns it as is. */
function intakeFailure(request: FastifyRequest, err: unknown, tooLarge: string): unknown {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(ApiCode.PAYLOAD_TOO_LARGE, tooLarge);
  if (code === 'FST_MP_PREMATURE_CLOSE' || !request.raw.complete) {
    request.log.info({ err }, 'upload cut off by the client; nothing kept');
    return new ApiError(ApiCode.BAD_REQUEST, Msg.uploadInterrupted);
  }
  return err;
}

/**
 * Reads the multipart body of `request` into `tmpDir` (see the module comment).
 * @returns the text parts and the received files
 * @throws ApiError 413 `opts.tooLarge`, ApiError 400 `Msg.uploadInterrupted`, or the errors of @fastify/multipart
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
        intake.fields[part.fieldname] = part.value;
      }
    }
    return intake;
  } catch (err) {
    await intake.discard();
    throw intakeFailure(request, err, opts.tooLarge);
  }
}
