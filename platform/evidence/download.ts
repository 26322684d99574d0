/**
 * Signed URLs and tokens, all HMAC-SHA256 with one key and a distinct purpose string per use:
 * - download (issue 2): `/api/file/<baoquan>?exp=<unix seconds>&sig=<hex>` over `download|<baoquan>|<exp>`, same-origin
 *   and relative so the gateway proxies them;
 * - package (issue 3): `/attestation/<baoquan>/package.zip?exp=&sig=` over `package:<baoquan>:<exp>`, served by the
 *   gateway, which checks it with `GET /api/file/<baoquan>/authorize` (or {@link verifyPackageSignature} in process);
 *   batch items `<baoquan>.<exp>.<sig>` carry the same package signature;
 * - view token (issue 3, public verification): `<exp>.<hex>` over `view:<no>:<exp>`.
 * The key is 32 random bytes generated on first start and kept at `${dataDir}/keys/download.key` (mode 0600).
 * Several platform instances must share that file.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readOrCreateKeyFile } from '../core/key-file.ts';
import path from 'node:path';

/** Path prefix of the download route. */
export const FILE_ROUTE_PREFIX = '/api/file/';
/** Path of the batch ZIP served by the gateway; `?items=<baoquan>.<exp>.<sig>,…`. */
export const BATCH_ZIP_PATH = '/attestation-list/download/batch.zip';

/** The relative URL of the package ZIP of `baoquan` (gateway route). */
export function packagePath(baoquan: string): string {
  return `/attestation/${encodeURIComponent(baoquan)}/package.zip`;
}

const EXP_RE = /^\d{1,12}$/;
const SIG_RE = /^[0-9a-f]{64}$/;

/** Constant-time comparison of two 64-hex signatures. */
function sigEqual(expectedHex: string, givenHex: string): boolean {
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}

/** Signs and verifies download URLs with the platform's HMAC key; create it with {@link DownloadSigner.open}. */
export class DownloadSigner {
  private constructor(private readonly key: Buffer) {}

  /**
   * Loads the key from `${dataDir}/keys/download.key`, creating it (0600, 64 hex) when absent.
   * @throws when the key file exists but is not 64 hex characters
   */
  static async open(dataDir: string): Promise<DownloadSigner> {
    const file = path.join(dataDir, 'keys', 'download.key');
    const hex = (await readOrCreateKeyFile(file, () => randomBytes(32).toString('hex'))).trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} must hold 64 hex characters`);
    return new DownloadSigner(Buffer.from(hex, 'hex'));
  }

  /** Hex HMAC-SHA256 over "download|<baoquan>|<exp>". */
  signature(baoquan: string, exp: number): string {
    return createHmac('sha256', this.key).update(`download|${baoquan}|${exp}`).digest('hex');
  }

  /** A relative URL for `baoquan` that expires `ttlSeconds` after `now` (unix seconds). */
  url(baoquan: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `${FILE_ROUTE_PREFIX}${encodeURIComponent(baoquan)}?exp=${exp}&sig=${this.signature(baoquan, exp)}`;
  }

  /** True when `sig` is the signature of (baoquan, exp) and `exp` is not before `now`. Constant-time compare. */
  verify(baoquan: string, exp: string | undefined, sig: string | undefined, now: number): boolean {
    if (!exp || !EXP_RE.test(exp) || !sig || !SIG_RE.test(sig)) return false;
    return sigEqual(this.signature(baoquan, Number(exp)), sig) && Number(exp) >= now;
  }

  /** Hex HMAC-SHA256 over "package:<baoquan>:<exp>" (the evidence package ZIP, issue 3). */
  packageSignature(baoquan: string, exp: number): string {
    return createHmac('sha256', this.key).update(`package:${baoquan}:${exp}`).digest('hex');
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
    if (!exp || !EXP_RE.test(exp) || !sig || !SIG_RE.test(sig)) return false;
    return sigEqual(this.packageSignature(baoquan, Number(exp)), sig) && Number(exp) >= now;
  }

  /**
   * Hex HMAC-SHA256 over "x:<purpose>|<subject>|<exp>" for other signed URLs (issue 4 seal images; later KYC
   * images). The `x:` prefix keeps these apart from the download, package and view signatures.
   */
  signFor(purpose: string, subject: string, exp: number): string {
    return createHmac('sha256', this.key).update(`x:${purpose}|${subject}|${exp}`).digest('hex');
  }

  /** `exp=<unix seconds>&sig=<hex>` for (purpose, subject), expiring `ttlSeconds` after `now`. */
  signedQuery(purpose: string, subject: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `exp=${exp}&sig=${this.signFor(purpose, subject, exp)}`;
  }

  /** True when `sig` signs (purpose, subject, exp) and `exp` is not before `now`. Constant time. */
  verifyFor(purpose: string, subject: string, exp: unknown, sig: unknown, now: number): boolean {
    if (typeof exp !== 'string' || !EXP_RE.test(exp) || typeof sig !== 'string' || !SIG_RE.test(sig))
      return false;
    return sigEqual(this.signFor(purpose, subject, Number(exp)), sig) && Number(exp) >= now;
  }

  /** A view token `<exp>.<hex HMAC over "view:<no>:<exp>">` for the public lookup of evidence number `no`. */
  viewToken(no: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `${exp}.${createHmac('sha256', this.key).update(`view:${no}:${exp}`).digest('hex')}`;
  }

  /** True when `token` is a live view token of `no` at `now` (unix seconds). Constant time. */
  verifyViewToken(no: string, token: string, now: number): boolean {
    const m = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
    if (!m) return false;
    const exp = Number(m[1]);
    const expected = createHmac('sha256', this.key).update(`view:${no}:${exp}`).digest('hex');
    return sigEqual(expected, m[2]!) && exp >= now;
  }
}

/**
 * Checks a package URL's signature with `signer` (the gateway may call this in process, or ask
 * `GET /api/file/<baoquan>/authorize` over HTTP and never hold the key).
 * @param exp,sig the query values as received (strings, maybe absent)
 * @param now unix seconds
 */
export function verifyPackageSignature(
  signer: DownloadSigner,
  baoquan: string,
  exp: string | undefined,
  sig: string | undefined,
  now: number,
): boolean {
  return signer.verifyPackage(baoquan, exp, sig, now);
}

/**
 * Parses one batch item `<baoquan>.<exp>.<sig>` (the `items` of the batch URL).
 * @returns its parts, or null when the shape is wrong (the signature is not checked here)
 */
export function parseBatchItem(item: string): { baoquan: string; exp: string; sig: string } | null {
  const m = /^([0-9A-Za-z]{1,64})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(item);
  return m ? { baoquan: m[1]!, exp: m[2]!, sig: m[3]! } : null;
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
