/**
 * Reading a page POST's body within bounds (docs/decisions/024-gateway-bodies.md). Every action that reads form
 * fields calls {@link readForm} instead of `request.formData()`, which buffers a body of any size (a 300 MB
 * form-encoded POST to /login grew the gateway by 800 MB) and answers 500 to anything that is not a form.
 *
 * - `application/x-www-form-urlencoded`: at most FORM_BODY_LIMIT_BYTES (`ctx.formBodyLimitBytes`, default 64 KiB):
 *   a larger Content-Length is refused before a byte is read; a chunked body is counted as it arrives and reading
 *   stops at the limit. Answer 413 {@link Msg.bodyTooLarge}.
 * - `multipart/form-data`: parsed as a stream (busboy) with per-field and per-file limits. Without `uploads` a
 *   multipart body may carry no file content and is held to the same byte limit as a form. With `uploads`, file
 *   parts up to `fileBytes` each (at most `files` of them, `totalBytes` in all) are kept in memory as `File`s, so
 *   the memory a request can take is bounded by the caller's limits. A larger file answers 413 with
 *   `Msg.fileTooLarge(fileBytes)`; a body that is cut off or garbled answers 400 {@link Msg.brokenForm}.
 * - Anything else (JSON, text, no content type with a body): 415 {@link Msg.unsupportedBody}.
 *
 * A refused body is not read further: the stream is left paused (not cancelled, which would reset the browser's
 * connection before the answer is sent) and the gateway's lingering close ends the connection after the answer.
 */
import busboy from '@fastify/busboy';
import { data, type AppLoadContext } from 'react-router';
import { Msg } from '../../contract/messages.ts';

/** File limits of an upload form (bytes). */
export interface UploadLimits {
  /** Largest file part, bytes. */
  fileBytes: number;
  /** Most file parts (an empty file input counts). */
  files: number;
  /** Largest whole body, bytes (default: files × fileBytes + the form limit). */
  totalBytes?: number;
}

/** Most text fields in one form (far above any page's form). */
const MAX_FIELDS = 200;

/** Why a body was refused: the HTTP status and the Chinese message. */
export class FormBodyRefused extends Error {
  readonly status: 400 | 413 | 415;
  constructor(status: 400 | 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads the request's form (see the module comment) and returns it as a `FormData`.
 * @throws a `data({ message }, { status })` response (413, 415 or 400) the root error boundary renders in Chinese
 */
export async function readForm(
  request: Request,
  ctx: AppLoadContext,
  uploads?: UploadLimits,
): Promise<FormData> {
  try {
    return await readFormBody(request, ctx.formBodyLimitBytes, uploads);
  } catch (err) {
    if (err instanceof FormBodyRefused) throw data({ message: err.message }, { status: err.status });
    throw err;
  }
}

/**
 * Like {@link readForm} but throws {@link FormBodyRefused}, for pages that answer the refusal themselves.
 * `formLimit` in bytes (FORM_BODY_LIMIT_BYTES).
 */
export async function readFormBody(
  request: Request,
  formLimit: number,
  uploads?: UploadLimits,
): Promise<FormData> {
  // The media type is case-insensitive, the multipart boundary is not: keep the header as sent for busboy.
  const header = request.headers.get('Content-Type') ?? '';
  const contentType = header.toLowerCase();
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (!request.body || (!contentType && declared === 0)) return new FormData();
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    if (declared > formLimit) throw new FormBodyRefused(413, Msg.bodyTooLarge);
    const bytes = await readCapped(request.body, formLimit);
    return formOf(new URLSearchParams(new TextDecoder().decode(bytes)));
  }
  if (contentType.startsWith('multipart/form-data')) {
    const total = uploads ? (uploads.totalBytes ?? uploads.files * uploads.fileBytes + formLimit) : formLimit;
    if (declared > total) {
      throw new FormBodyRefused(413, uploads ? Msg.fileTooLarge(uploads.fileBytes) : Msg.bodyTooLarge);
    }
    return readMultipart(request.body, header, formLimit, total, uploads);
  }
  throw new FormBodyRefused(415, Msg.unsupportedBody);
}

/** URLSearchParams → FormData (same order, repeated names kept). */
function formOf(params: URLSearchParams): FormData {
  const form = new FormData();
  for (const [k, v] of params) form.append(k, v);
  return form;
}

/**
 * Reads `body` whole if it is at most `limit` bytes. @throws FormBodyRefused 413 at the first byte over the limit
 * (the rest stays unread: the reader's lock is released, the stream is not cancelled).
 */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new FormBodyRefused(413, Msg.bodyTooLarge);
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof FormBodyRefused) throw err;
    throw new FormBodyRefused(400, Msg.brokenForm);
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, size);
}

/** Resolves on the first of `events` on `emitter`, removing the other listeners. */
function settled(emitter: NodeJS.EventEmitter, events: string[]): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const e of events) emitter.off(e, done);
      resolve();
    };
    for (const e of events) emitter.once(e, done);
  });
}

/** Parses a multipart body as a stream under the limits (see the module comment). */
async function readMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  formLimit: number,
  total: number,
  uploads: UploadLimits | undefined,
): Promise<FormData> {
  const form = new FormData();
  let refusal: FormBodyRefused | null = null;
  const refuse = (r: FormBodyRefused) => {
    refusal ??= r;
  };
  let bb: ReturnType<typeof busboy>;
  try {
    bb = busboy({
      headers: { 'content-type': contentType },
      limits: {
        fieldSize: formLimit,
        fields: MAX_FIELDS,
        fileSize: uploads?.fileBytes ?? 0,
        files: uploads?.files ?? MAX_FIELDS,
        parts: MAX_FIELDS + (uploads?.files ?? 0),
      },
    });
  } catch {
    throw new FormBodyRefused(400, Msg.brokenForm); // no or a bad boundary
  }
  const tooLarge = () =>
    refuse(new FormBodyRefused(413, uploads ? Msg.fileTooLarge(uploads.fileBytes) : Msg.bodyTooLarge));
  const finished = new Promise<void>((resolve) => {
    bb.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) refuse(new FormBodyRefused(413, Msg.bodyTooLarge));
      else form.append(name, value);
    });
    bb.on('file', (name, stream, filename, _encoding, mimeType) => {
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (uploads) chunks.push(new Uint8Array(chunk));
        else if (chunk.length > 0) tooLarge(); // a non-upload form carries no file content
      });
      stream.on('limit', tooLarge);
      stream.on('end', () => {
        form.append(name, new File(chunks, filename ?? '', { type: mimeType || 'application/octet-stream' }));
      });
    });
    bb.on('partsLimit', () => refuse(new FormBodyRefused(413, Msg.bodyTooLarge)));
    bb.on('filesLimit', tooLarge);
    bb.on('fieldsLimit', () => refuse(new FormBodyRefused(413, Msg.bodyTooLarge)));
    bb.on('error', () => {
      refuse(new FormBodyRefused(400, Msg.brokenForm));
      resolve();
    });
    bb.on('finish', resolve);
  });
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > total) tooLarge();
      if (refusal) break;
      if (!bb.write(value)) await settled(bb, ['drain', 'error', 'close']);
      if (refusal) break;
    }
  } catch {
    refuse(new FormBodyRefused(400, Msg.brokenForm)); // the browser's stream failed midway
  } finally {
    reader.releaseLock();
  }
  if (refusal) {
    bb.removeAllListeners('error');
    bb.on('error', () => undefined);
    bb.destroy();
    throw refusal;
  }
  bb.end();
  await finished;
  if (refusal) throw refusal;
  return form;
}
