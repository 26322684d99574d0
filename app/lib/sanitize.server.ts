/**
 * Sanitizes certificate HTML that comes from the upstream before it is rendered (ARCHITECTURE "Certificate HTML"):
 * structure, tables and text formatting only; no scripts, styles, event handlers, forms or external resources.
 */
import { LRUCache } from 'lru-cache';
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

/**
 * Sanitized HTML by its input. A certificate's HTML changes only with its evidence's state, and popular certificates
 * are opened many times: sanitizing costs about a millisecond per page view, a lookup microseconds. Bounded by the
 * characters held (input and output, ~16 MB of strings at most).
 */
const sanitized = new LRUCache<string, string>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (value, key) => value.length + key.length,
});

/** Returns the HTML with everything outside the allow-list removed (the same input gives the same output). */
export function sanitizeCertificateHtml(html: string): string {
  const hit = sanitized.get(html);
  if (hit !== undefined) return hit;
  const clean = sanitizeHtml(html, OPTIONS);
  sanitized.set(html, clean);
  return clean;
}
