/**
 * Zod issues as one message per form field, for pages that validate a form with the contract's schema before
 * calling the platform (the invoice and notarisation forms). No I/O.
 */

/** The first message of each field of a failed zod parse: field → message. */
export function fieldErrors(
  issues: readonly { path: PropertyKey[]; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
