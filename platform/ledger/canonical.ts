/** The canonical encoding of ledger records lives in contract/canonical-json.ts (the gateway's /verify uses it too). */
export { canonicalJson } from '../../contract/canonical-json.ts';
