/** contract/: what app/ and platform/ share. No I/O. */
export * from './envelope.ts';
export * from './messages.ts';
export * from './validators.ts';
export * from './account.ts';
export * from './notification.ts';
export * from './signature.ts';
export * from './address.ts';
export * from './evidence.ts';
export * from './verify.ts';
export * from './ledger.ts';
export * from './legacy.ts';
export * from './kyc.ts';
export * from './kyc-images.ts';
export * from './kyc-review.ts';
export * from './ops.ts';
