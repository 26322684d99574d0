/**
 * The offline package verifier lives in contract/package-verify.ts, shared by `npm run verify` (verify-cli.ts) and
 * the gateway's /verify page (docs/decisions/035-checkpoints.md).
 */
export * from '../../contract/package-verify.ts';
