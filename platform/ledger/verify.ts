/**
 * The pure ledger checks (RFC 9162 §2.1.3–2.1.4, signed tree heads) live in contract/ so the web app can verify
 * the platform's answers too (the consistency check of /queryAuthentication/mutualEvidence); re-exported here for
 * the platform and the offline verifier.
 */
export * from '../../contract/ledger-verify.ts';
