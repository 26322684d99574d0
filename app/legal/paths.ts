/**
 * The route path of each legal document (spec 01 §2), for links from the footer, the register page and the KYC
 * consent. Kept apart from the texts so that a link does not pull the documents into a page's browser chunk.
 */
export const LegalPaths = {
  userAgreement: '/user-agreement',
  privacy: '/privacy',
  clause: '/clause',
} as const;
export type LegalKind = keyof typeof LegalPaths;
