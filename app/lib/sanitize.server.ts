/**
 * Sanitizes certificate HTML that comes from the upstream before it is rendered (ARCHITECTURE "Certificate HTML"):
 * structure, tables and text formatting only; no scripts, styles, event handlers, forms or external resources.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'section',
    'article',
    'header',
    'footer',
    'div',
    'span',
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'small',
    'sub',
    'sup',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    'a',
    'time',
  ],
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'lang'],
    a: ['href', 'rel'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    time: ['datetime'],
  },
  allowedSchemes: ['https', 'http'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** Returns the HTML with everything outside the allow-list removed. */
export function sanitizeCertificateHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
