/**
 * Public verification lookups (spec 01 §2.1 /queryAuthentication; decision 006), rate-limited per client by the
 * platform: by preservation number (bqno → viewToken → bqview), by SHA-256 (byHash), and the SHA-256 of a file a
 * browser without JavaScript uploads: streamed through busboy into a hash and discarded, never stored.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from '@fastify/busboy';
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidenceMsg, Sha256Hex } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { type PublicEvidence, VerifyPaths } from '../../contract/verify.ts';
import { apiCall } from '../lib/api.server.ts';

export type Lookup<T> = { ok: true; value: T } | { ok: false; error: string };

/** Finds an evidence by its preservation number. */
export async function lookupByNumber(
  context: AppLoadContext,
  no: string,
  urlPath: string,
): Promise<Lookup<PublicEvidence>> {
  const token = await apiCall<{ viewToken: string }>(context, VerifyPaths.bqno, {
    body: { no },
    urlPath,
  });
  if (!isSuccess(token.code)) return { ok: false, error: token.msg };
  const view = await apiCall<PublicEvidence>(context, VerifyPaths.bqview, {
    body: { viewToken: token.data.viewToken, no },
    urlPath,
  });
  return isSuccess(view.code) ? { ok: true, value: view.data } : { ok: false, error: view.msg };
}

/** Finds evidence whose SHA-256 is `hash` (validated as 64 hex characters). */
export async function lookupByHash(
  context: AppLoadContext,
  hash: string,
  urlPath: string,
): Promise<Lookup<PublicEvidence[]>> {
  const parsed = Sha256Hex.safeParse(hash);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? Msg.badRequest };
  const res = await apiCall<PublicEvidence[]>(context, VerifyPaths.byHash, {
    body: { hash: parsed.data },
    urlPath,
  });
  return isSuccess(res.code) ? { ok: true, value: res.data } : { ok: false, error: res.msg };
}

/** Largest file hashed on the server for a browser without JavaScript (bytes); larger files: hash locally. */
export const SERVER_HASH_LIMIT = 512 * 1024 * 1024;

/** Options of {@link hashUpload}. */
export interface HashUploadOptions {
  /** The file part's name (default `file`). */
  field?: string;
  /** Largest file part (bytes; default {@link SERVER_HASH_LIMIT}). */
  limit?: number;
  /** Also write the file's bytes to this new file (the caller deletes it). */
  saveTo?: string;
  /** The message for a file over `limit`. */
  tooLarge?: string;
}

/**
 * Reads a multipart request: text fields into `fields`, the file part into a SHA-256 (stored only with `saveTo`).
 * @returns `{fields, sha256}` (sha256 null when no file was chosen) or an error message.
 */
export async function hashUpload(
  request: Request,
  opts: HashUploadOptions = {},
): Promise<{ fields: Record<string, string>; sha256: string | null; size: number } | { error: string }> {
  const limit = opts.limit ?? SERVER_HASH_LIMIT;
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!contentType.startsWith('multipart/form-data') || !request.body)
    return { error: EvidenceMsg.fileRequired };
  const fields: Record<string, string> = {};
  let sha256: string | null = null;
  let size = 0;
  let tooLarge = false;
  const finishing: Promise<unknown>[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const bb = busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: limit, files: 1, fields: 20 },
      });
      bb.on('field', (name, value) => {
        fields[name] = value;
      });
      bb.on('file', (name, stream, filename) => {
        if (name !== (opts.field ?? 'file') || !filename) {
          stream.resume();
          return;
        }
        const hash = createHash('sha256');
        const saved = opts.saveTo ? fs.createWriteStream(opts.saveTo, { flags: 'wx', mode: 0o600 }) : null;
        if (saved) {
          saved.on('error', reject);
          stream.pipe(saved);
          finishing.push(new Promise((r) => saved.on('close', () => r(undefined))));
        }
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
        });
        stream.on('limit', () => {
          tooLarge = true;
        });
        stream.on('end', () => {
          sha256 = hash.digest('hex');
        });
      });
      bb.on('finish', () => void Promise.all(finishing).then(() => resolve()));
      bb.on('error', reject);
      Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
        .on('error', reject)
        .pipe(bb);
    });
  } catch {
    return { error: Msg.brokenForm }; // cut off or garbled: a 400 page, never a 500
  }
  if (tooLarge)
    return { error: opts.tooLarge ?? `文件超过${limit / 1024 / 1024}MB，请在本机计算SHA-256后粘贴哈希值` };
  return { fields, sha256, size };
}
