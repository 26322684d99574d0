/** contract/: what app/ and platform/ share. No I/O. */
export * from './envelope.ts';
export * from './messages.ts';
export * from './validators.ts';
export * from './evidence.ts';
export * from './api/account.ts';
export * from './api/evidence.ts';
export * from './api/ledger.ts';
export * from './api/evidence-kinds.ts';
export * from './api/account-area.ts';
export * from './kyc.ts';
export * from './kyc-images.ts';
export * from './kyc-review.ts';
export * from './ops.ts';
