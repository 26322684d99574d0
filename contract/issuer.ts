/**
 * Who issues the platform's documents, and what else the pages print about the site (no I/O: the gateway's and the
 * platform's configuration derive these from PLATFORM_OPERATOR, NOTARY_OFFICE, SUPPORT_CONTACT, PUBLIC_URL and
 * STORAGE_HOST_REWRITE, with their defaults, in lib/config-shared.ts and server/config/gateway.ts; pages get
 * them from the load context, app/context.ts). PLATFORM_OPERATOR (default 存证云) runs the platform and signs
 * certificate PDFs (decision 029); NOTARY_OFFICE (default 合作公证机构) is the cooperating notary office the legal
 * texts and certificates name; SUPPORT_CONTACT (a hotline and an e-mail address) is shown when set.
 */

/** The issuer facts every certificate, legal page and help page prints. */
export interface Issuer {
  operator: string;
  notaryOffice: string;
  /** Null when SUPPORT_CONTACT is not set. */
  contact: string | null;
}

/** What the pages print about the site: the load context's `site` (app/context.ts). */
export interface SiteFacts {
  /** PUBLIC_URL without a trailing slash, or null when unset (then the request's origin). */
  publicUrl: string | null;
  /** PLATFORM_OPERATOR, NOTARY_OFFICE, SUPPORT_CONTACT. */
  issuer: Issuer;
  /** STORAGE_HOST_REWRITE as given ('' when unset): `from=to,…` (spec 01 §9). */
  storageHostRewrite: string;
}
