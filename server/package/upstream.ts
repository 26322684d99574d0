/**
 * What the evidence packages need from the upstream platform: the package-signature check (`authorize`), the ledger
 * proof, and the original bytes as a stream. Each call goes straight to the upstream (not through the gateway's
 * proxy), anonymously: the package signature is the only credential.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { LedgerPaths, type ProofBundle } from '../../contract/ledger.ts';
import { UpstreamError } from '../pdf/renderer.ts';

/**
 * `GET /api/file/<baoquan>/authorize?exp=&sig=&purpose=package` → this, when the package signature is valid (the
 * contract the gateway codes against; see docs/decisions/007-pdf-and-packages.md).
 */
export interface PackageGrant {
  baoquan: string;
  /** Name of the original as it goes into the package (`evidence/<fileName>`); null when no bytes are held (hash). */
  fileName: string | null;
  /** file | hash | property | app. */
  kind: string;
  /**
   * A fresh signed URL of the original bytes (`/api/file/<baoquan>?exp=&sig=`, relative to the upstream, or
   * absolute), or null when there are none to give (hash evidence, data deleted by the owner).
   */
  downUrl: string | null;
}

/**
 * Outcome of an authorize call: a grant, or the HTTP status the gateway answers (403 bad/expired/deleted, 404
 * unknown) with the platform's message (e.g. 下载链接无效或已过期), shown to the user as plain text.
 */
export type AuthorizeResult =
  { ok: true; grant: PackageGrant } | { ok: false; status: 403 | 404; msg: string | null };

/** The upstream calls of the package routes (an interface so tests may replace one). */
export interface PackageUpstream {
  authorize(baoquan: string, exp: string, sig: string): Promise<AuthorizeResult>;
  proof(baoquan: string): Promise<ProofBundle>;
  /** Opens the original: a stream of its bytes (backpressured, nothing buffered). */
  original(downUrl: string, signal: AbortSignal): Promise<Readable>;
}

const JSON_TIMEOUT_MS = 15_000;

async function getJson<T>(url: string): Promise<{ status: number; env: ApiEnvelope<T> | null }> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(JSON_TIMEOUT_MS),
    });
  } catch (err) {
    throw new UpstreamError(`${url}: ${(err as Error).message}`, { cause: err });
  }
  const text = await res.text();
  try {
    const env = JSON.parse(text) as ApiEnvelope<T>;
    return { status: res.status, env: env && typeof env === 'object' && 'code' in env ? env : null };
  } catch {
    return { status: res.status, env: null };
  }
}

/**
 * The HTTP implementation against `upstreamUrl` (base URL without a trailing slash).
 *
 * - authorize: HTTP 403 or envelope code 403 → `{ok:false,status:403}`; code 404 → 404; code 200 with data → grant;
 *   anything else (no such route, 5xx, no envelope) → UpstreamError.
 * - proof: `GET /api/ledger/proof?baoquan=` → ProofBundle; anything but code 200 → UpstreamError.
 * - original: `GET <downUrl>` → 200 body stream; anything else → UpstreamError.
 */
export function httpPackageUpstream(upstreamUrl: string): PackageUpstream {
  const base = upstreamUrl.replace(/\/+$/, '');
  return {
    async authorize(baoquan, exp, sig) {
      const q = new URLSearchParams({ exp, sig, purpose: 'package' });
      const { status, env } = await getJson<PackageGrant>(
        `${base}/api/file/${encodeURIComponent(baoquan)}/authorize?${q}`,
      );
      const code = env ? Number(env.code) : NaN;
      const msg = env && typeof env.msg === 'string' && env.msg.trim() !== '' ? env.msg.slice(0, 200) : null;
      if (env && (code === 403 || status === 403)) return { ok: false, status: 403, msg };
      if (env && code === 404) return { ok: false, status: 404, msg };
      if (code === 200 && env?.data && env.data.baoquan === baoquan) {
        const d = env.data;
        return {
          ok: true,
          grant: {
            baoquan: d.baoquan,
            fileName: typeof d.fileName === 'string' && d.fileName !== '' ? d.fileName : null,
            kind: String(d.kind ?? 'file'),
            downUrl: typeof d.downUrl === 'string' && d.downUrl !== '' ? d.downUrl : null,
          },
        };
      }
      throw new UpstreamError(`authorize answered HTTP ${status}, code ${env?.code ?? 'none'}`);
    },

    async proof(baoquan) {
      const { status, env } = await getJson<ProofBundle>(
        `${base}${LedgerPaths.proof}?baoquan=${encodeURIComponent(baoquan)}`,
      );
      if (!env || Number(env.code) !== 200 || !env.data) {
        throw new UpstreamError(`ledger proof answered HTTP ${status}, code ${env?.code ?? 'none'}`);
      }
      return env.data;
    },

    async original(downUrl, signal) {
      const url = /^https?:\/\//.test(downUrl)
        ? downUrl
        : `${base}${downUrl.startsWith('/') ? '' : '/'}${downUrl}`;
      let res: Response;
      try {
        res = await fetch(url, { signal });
      } catch (err) {
        throw new UpstreamError(`original: ${(err as Error).message}`, { cause: err });
      }
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        throw new UpstreamError(`original answered HTTP ${res.status}`);
      }
      return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    },
  };
}
