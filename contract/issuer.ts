/**
 * Who issues the platform's documents, from configuration (no I/O: the caller passes its environment):
 * PLATFORM_OPERATOR (default 存证云) runs the platform and signs certificate PDFs (decision 029); NOTARY_OFFICE
 * (default 合作公证机构) is the cooperating notary office the legal texts and certificates name; SUPPORT_CONTACT (a
 * hotline and an e-mail address) is shown when set.
 */

/** The issuer facts every certificate, legal page and help page prints. */
export interface Issuer {
  operator: string;
  notaryOffice: string;
  /** Null when SUPPORT_CONTACT is not set. */
  contact: string | null;
}

/** Reads the issuer from `env` (blank values count as unset). */
export function certificateIssuer(env: Record<string, string | undefined>): Issuer {
  return {
    operator: env.PLATFORM_OPERATOR?.trim() || '存证云',
    notaryOffice: env.NOTARY_OFFICE?.trim() || '合作公证机构',
    contact: env.SUPPORT_CONTACT?.trim() || null,
  };
}
