/**
 * Evidence download URLs and tokens, HMAC-SHA256 with the platform's signing key (files/signer.ts), a distinct input
 * shape per use:
 * - download: `/api/file/<baoquan>?exp=<unix seconds>&sig=<hex>` over `download|<baoquan>|<exp>`, same-origin and
 *   relative so the gateway proxies them (spec 01 §4);
 * - package: `/attestation/<baoquan>/package.zip?exp=&sig=` over `package:<baoquan>:<exp>`, served by the gateway,
 *   which checks it with `GET /api/file/<baoquan>/authorize`; batch
 *   items `<baoquan>.<exp>.<sig>` carry the same package signature (spec 01 §2.4);
 * - view token of the public verification (spec 01 §2.1 /queryAuthentication): `<exp>.<hex>` over `view:<no>:<exp>`.
 */
import { loadSigningKey, sigEqual, UrlSigner, wellFormed } from '../files/signer.ts';

/** Path prefix of the download route. */
export const FILE_ROUTE_PREFIX = '/api/file/';
/** Path of the batch ZIP served by the gateway; `?items=<baoquan>.<exp>.<sig>,…`. */
export const BATCH_ZIP_PATH = '/attestation-list/download/batch.zip';

/** The relative URL of the package ZIP of `baoquan` (gateway route). */
export function packagePath(baoquan: string): string {
  return `/attestation/${encodeURIComponent(baoquan)}/package.zip`;
}

/**
 * The platform's URL signer (`app.downloads`) with the evidence URLs on top of the signed file URLs of
 * {@link UrlSigner}; create it with {@link DownloadSigner.open}.
 */
export class DownloadSigner extends UrlSigner {
  /**
   * Loads the key from `${dataDir}/keys/download.key`, creating it when absent.
   * @throws when the key file exists but is not 64 hex characters
   */
  static async open(dataDir: string): Promise<DownloadSigner> {
    return new DownloadSigner(await loadSigningKey(dataDir));
  }

  /** Hex HMAC-SHA256 over "download|<baoquan>|<exp>". */
  signature(baoquan: string, exp: number): string {
    return this.hmac(`download|${baoquan}|${exp}`);
  }

  /** A relative URL for `baoquan` that expires `ttlSeconds` after `now` (unix seconds). */
  url(baoquan: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `${FILE_ROUTE_PREFIX}${encodeURIComponent(baoquan)}?exp=${exp}&sig=${this.signature(baoquan, exp)}`;
  }

  /** True when `sig` is the signature of (baoquan, exp) and `exp` is not before `now`. Constant-time compare. */
  verify(baoquan: string, exp: string | undefined, sig: string | undefined, now: number): boolean {
    if (!wellFormed(exp, sig)) return false;
    return sigEqual(this.signature(baoquan, Number(exp)), sig!) && Number(exp) >= now;
  }

  /** Hex HMAC-SHA256 over "package:<baoquan>:<exp>" (the evidence package ZIP). */
  packageSignature(baoquan: string, exp: number): string {
    return this.hmac(`package:${baoquan}:${exp}`);
  }

  /** `/attestation/<baoquan>/package.zip?exp=&sig=`, expiring `ttlSeconds` after `now` (unix seconds). */
  packageUrl(baoquan: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `${packagePath(baoquan)}?exp=${exp}&sig=${this.packageSignature(baoquan, exp)}`;
  }

  /** One batch item `<baoquan>.<exp>.<sig>` carrying the package signature. */
  batchItem(baoquan: string, exp: number): string {
    return `${baoquan}.${exp}.${this.packageSignature(baoquan, exp)}`;
  }

  /** True when `sig` is the package signature of (baoquan, exp) and `exp` is not before `now`. Constant time. */
  verifyPackage(baoquan: string, exp: string | undefined, sig: string | undefined, now: number): boolean {
    if (!wellFormed(exp, sig)) return false;
    return sigEqual(this.packageSignature(baoquan, Number(exp)), sig!) && Number(exp) >= now;
  }

  /** A view token `<exp>.<hex HMAC over "view:<no>:<exp>">` for the public lookup of evidence number `no`. */
  viewToken(no: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `${exp}.${this.hmac(`view:${no}:${exp}`)}`;
  }

  /** True when `token` is a live view token of `no` at `now` (unix seconds). Constant time. */
  verifyViewToken(no: string, token: string, now: number): boolean {
    const m = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
    if (!m) return false;
    const exp = Number(m[1]);
    return sigEqual(this.hmac(`view:${no}:${exp}`), m[2]!) && exp >= now;
  }
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback and an RFC 5987 `filename*` (RFC 6266 §4.3) so Chinese
 * names survive.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'evidence';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
