/**
 * A small typed client of Cunzheng's open API (contract/open-api.ts, the OpenAPI document at `/openapi.json`;
 * docs/decisions/038-open-api-signing.md) for Node.js 20+: fetch plus node:crypto's HMAC-SHA256.
 *
 *   const api = new OpenApiClient({ baseUrl: 'https://example.cn', appId, securityKey });
 *   const saved = await api.saveFile('/path/to/video.mp4', { title: '现场录像', configName: 'iPhone' });
 *   const view = await api.getEvidence(saved.baoquan);
 *
 * Files are streamed twice (once to hash them for the signature, once to send them), never held in memory. Answers
 * are checked against the contract's schemas; a refusal throws {@link OpenApiError} with the platform's Chinese
 * message and the HTTP status.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  OpenApiHeaders,
  OpenApiPaths,
  OpenEvidenceView,
  type OpenFileQuery,
  type OpenHashBody,
  OpenSaveData,
  stringToSign,
} from '../contract/open-api.ts';

/** Where the API is and whose credentials sign. */
export interface OpenApiCredentials {
  /** The site's origin, with the deployment prefix if any (e.g. `https://example.cn/cunzheng`). */
  baseUrl: string;
  appId: string;
  securityKey: string;
}

/** Hooks for tests and unusual hosts. */
export interface OpenApiClientOptions {
  fetch?: typeof fetch;
  /** Unix seconds (default: the local clock). */
  now?: () => number;
  /** A fresh nonce per call (default: 24 random bytes, base64url). */
  nonce?: () => string;
}

/** A refused call: `status` is the HTTP status, `code` the envelope's, `message` the platform's Chinese reason. */
export class OpenApiError extends Error {
  override name = 'OpenApiError';
  readonly status: number;
  readonly code: number | string;
  constructor(status: number, code: number | string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A body to sign and send: its bytes (or a stream of them) and their SHA-256. */
interface SignedBody {
  contentType: string;
  sha256: string;
  bytes: Uint8Array | (() => Readable);
}

/** Lower-case hex SHA-256 of the file at `file`, streamed. */
async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The client. */
export class OpenApiClient {
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly nonce: () => string;
  private readonly base: URL;
  private readonly credentials: OpenApiCredentials;

  constructor(credentials: OpenApiCredentials, options: OpenApiClientOptions = {}) {
    this.credentials = credentials;
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.nonce = options.nonce ?? (() => randomBytes(24).toString('base64url'));
    this.base = new URL(credentials.baseUrl.replace(/\/+$/, '') + '/');
  }

  /**
   * Preserves a file (its path, or its bytes) with `query`'s title, label, name and device fields (any device field
   * makes it app evidence).
   * @throws OpenApiError when refused
   */
  async saveFile(
    file: string | Uint8Array,
    query: OpenFileQuery = {},
  ): Promise<z.infer<typeof OpenSaveData>> {
    const body: SignedBody =
      typeof file === 'string'
        ? {
            contentType: 'application/octet-stream',
            sha256: await fileSha256(file),
            bytes: () => createReadStream(file),
          }
        : {
            contentType: 'application/octet-stream',
            sha256: createHash('sha256').update(file).digest('hex'),
            bytes: file,
          };
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') search.set(k, String(v));
    const qs = search.toString();
    const res = await this.send('POST', `${OpenApiPaths.file}${qs ? `?${qs}` : ''}`, body);
    return this.answer(res, OpenSaveData);
  }

  /** Preserves a file's SHA-256 only. @throws OpenApiError when refused */
  async saveHash(body: OpenHashBody): Promise<z.infer<typeof OpenSaveData>> {
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    const res = await this.send('POST', OpenApiPaths.hash, {
      contentType: 'application/json',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes,
    });
    return this.answer(res, OpenSaveData);
  }

  /** One of the caller's evidences. @throws OpenApiError when refused (404 when not the caller's) */
  async getEvidence(baoquan: string): Promise<z.infer<typeof OpenEvidenceView>> {
    const res = await this.send('GET', OpenApiPaths.view.replace(':baoquan', encodeURIComponent(baoquan)));
    return this.answer(res, OpenEvidenceView);
  }

  /**
   * Signs and sends one call (the building block of the methods above; exposed for calls the client does not wrap).
   * @param pathWithQuery the API path from `/api/` on, with its query string exactly as it will be sent
   * @param headers overrides of the signed headers (tests use it to send a stale timestamp or a wrong signature)
   */
  async send(
    method: 'GET' | 'POST',
    pathWithQuery: string,
    body?: SignedBody,
    headers: Partial<Record<keyof typeof OpenApiHeaders, string>> = {},
  ): Promise<Response> {
    const timestamp = headers.timestamp ?? String(this.now());
    const nonce = headers.nonce ?? this.nonce();
    const bodySha256 = body?.sha256 ?? createHash('sha256').digest('hex');
    const signature =
      headers.signature ??
      createHmac('sha256', this.credentials.securityKey)
        .update(stringToSign(method, pathWithQuery, timestamp, nonce, bodySha256))
        .digest('base64');
    const url = new URL(pathWithQuery.replace(/^\//, ''), this.base);
    const init: RequestInit & { duplex?: 'half' } = {
      method,
      headers: {
        [OpenApiHeaders.appId]: headers.appId ?? this.credentials.appId,
        [OpenApiHeaders.timestamp]: timestamp,
        [OpenApiHeaders.nonce]: nonce,
        [OpenApiHeaders.signature]: signature,
        accept: 'application/json',
        ...(body ? { 'content-type': body.contentType } : {}),
      },
    };
    if (body) {
      const { bytes } = body;
      if (typeof bytes === 'function') {
        init.body = Readable.toWeb(bytes()) as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      } else {
        init.body = bytes as Uint8Array<ArrayBuffer>;
      }
    }
    return this.fetch(url, init);
  }

  /** The envelope's `data` checked by `schema`. @throws OpenApiError for a refusal or an answer of another shape */
  private async answer<S extends z.ZodType>(res: Response, schema: S): Promise<z.infer<S>> {
    const text = await res.text();
    let env: { code?: number | string; msg?: string; data?: unknown };
    try {
      env = JSON.parse(text) as typeof env;
    } catch {
      throw new OpenApiError(res.status, res.status, `HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    if (res.status !== 200 || Number(env.code) !== 200) {
      throw new OpenApiError(res.status, env.code ?? res.status, env.msg ?? `HTTP ${res.status}`);
    }
    return schema.parse(env.data);
  }
}
