/**
 * The open API's paths, headers and window (contract/open-api.ts has the schemas and the signing rule;
 * decision 038), without zod, so that pages and the evidence codes can name them without loading the
 * schemas into the browser.
 */

/** Where the open API lives (the gateway passes `/api/*` through untouched). */
export const OPEN_API_PREFIX = '/api/open/v1';

export const OpenApiPaths = {
  /**
   * `POST` body: the file's bytes (`Content-Type: application/octet-stream`, at most MAX_UPLOAD_BYTES); query:
   * {@link OpenFileQuery} → {@link OpenSaveData}. With any device field the evidence is of kind `app` (listed at
   * `/evidences-all/mobile-process`), else of kind `file`.
   */
  file: `${OPEN_API_PREFIX}/evidences/file`,
  /** `POST` JSON {@link OpenHashBody} → {@link OpenSaveData}: hash evidence, the file never leaves the caller. */
  hash: `${OPEN_API_PREFIX}/evidences/hash`,
  /** `GET` → {@link OpenEvidenceView} of one of the caller's evidences (Fastify parameter syntax). */
  view: `${OPEN_API_PREFIX}/evidences/:baoquan`,
  /** `GET` (browser session) → {@link OpenApiState}: what `/newMobile` shows. */
  state: '/api/open/state',
} as const;

/** The OpenAPI 3.1 document's path on the gateway. */
export const OPEN_API_DOCUMENT_PATH = '/openapi.json';

/** Request headers of a signed call (lower case, as Node gives them). */
export const OpenApiHeaders = {
  appId: 'x-cz-appid',
  timestamp: 'x-cz-timestamp',
  nonce: 'x-cz-nonce',
  signature: 'x-cz-signature',
} as const;

/** Largest distance between a request's timestamp and the platform clock (seconds). */
export const OPEN_API_MAX_SKEW_SECONDS = 300;

/** What `/newMobile` shows of the signed-in user's credentials. */
export interface OpenApiState {
  /** The user is a verified enterprise (only they have credentials). */
  enterprise: boolean;
  /** The AppID, '' when none. */
  appId: string;
  /** True when the current SecurityKey can sign calls (issued or rotated since the open API exists). */
  signingReady: boolean;
  /** The masked SecurityKey ('' when none). */
  securityKeyMasked: string;
}
