/**
 * Escaping text for HTML (the platform's certificate HTML, the gateway's saved offline verifier): the five
 * HTML-significant characters become entities, so a value can stand in element content and in quoted attributes.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes the five HTML-significant characters. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
