/**
 * The canonical encoding of ledger records (of the original hash chain, kept by the Merkle log;
 * docs/decisions/005-ledger.md): JSON with object keys sorted at every level (UTF-16 code-unit order, as
 * JavaScript compares strings), no whitespace, `undefined` members left out. For the plain values of a record
 * (strings, safe integers, booleans, null) this is the RFC 8785 (JCS) form. Pure: no I/O, so the offline
 * verifier uses the very same function as the platform.
 */

/**
 * The canonical JSON of `value`.
 * @returns the UTF-8-ready string whose bytes are the ledger's leaf input (RFC 9162 §2.1.1 "leaf input")
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
