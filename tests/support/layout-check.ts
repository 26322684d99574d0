/**
 * The checks of the page walk (tests/e2e/layout-walk.spec.ts, decision 049), run in the page by one
 * `page.evaluate(pageProblems, LAYOUT_LIMITS)`: self-contained (Playwright serialises the function), so it imports
 * nothing and calls only functions declared inside it. One line per problem, naming the element by a short selector,
 * its text and its size:
 * - (a) the document wider than the viewport;
 * - (b) an element sticking out of the content box of its containing block horizontally, its text wider than its
 *   box, an input's placeholder wider than the input, or a short term (a column's label, a status, a tab) broken
 *   over lines in a squeezed column or box;
 * - (c) a visible control smaller than 24 × 24 CSS px without one of WCAG 2.2 2.5.8's exceptions (inline in a
 *   sentence, or spaced so that a 24 px circle on it touches no other target), as axe's `target-size` rule judges;
 * - (d) axe's violations of impact serious or critical (axe-core is in the page already: tests/support/layout-walk.ts
 *   adds it as an init script).
 */

/** The thresholds of the checks (decision 049), handed to the page with the axe rule sets to run. */
export const LAYOUT_LIMITS = {
  /** What may stick out before it counts: sub-pixel rounding, 1 CSS px. */
  tolerancePx: 1,
  /** WCAG 2.2 2.5.8 Target Size (Minimum): 24 × 24 CSS px. */
  minTargetPx: 24,
  /** A term of this many characters or fewer must not break over lines (选/择, 文件类/型). */
  shortTermChars: 8,
  /** axe's rule sets: WCAG 2.0, 2.1 and 2.2 at A and AA (2.2 holds `target-size`), and its best practices. */
  axeTags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
};

/** The bits of axe-core's result the walk reports. */
interface AxeResult {
  violations: {
    id: string;
    impact?: string | null;
    nodes: { target: string[]; any: { message: string }[]; all: { message: string }[] }[];
  }[];
}

/** The problems of the page as shown, one line each (empty when it lays out well and axe finds nothing serious). */
export async function pageProblems(limits: typeof LAYOUT_LIMITS): Promise<string[]> {
  const { tolerancePx: tolerance, minTargetPx: minTarget, shortTermChars, axeTags } = limits;
  const problems: string[] = [];
  const vw = document.documentElement.clientWidth;
  const skipTags = new Set([
    'SCRIPT',
    'STYLE',
    'LINK',
    'META',
    'TITLE',
    'HEAD',
    'BR',
    'WBR',
    'OPTION',
    'NOSCRIPT',
  ]);
  const styleOf = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let s = styleOf.get(el);
    if (!s) styleOf.set(el, (s = getComputedStyle(el)));
    return s;
  };
  const px = (v: string) => parseFloat(v) || 0;

  /** A short selector: tag, id or two classes, and the parent's the same way; text and size follow. */
  const describe = (el: Element, rect?: DOMRect): string => {
    const one = (e: Element) => {
      const tag = e.tagName.toLowerCase();
      const id = e.getAttribute('id');
      if (id) return `${tag}#${id}`;
      const classes = [...e.classList].slice(0, 2).map((c) => `.${c}`);
      const testId = e.getAttribute('data-testid');
      const label = e.getAttribute('data-label');
      return `${tag}${classes.join('')}${testId ? `[data-testid=${testId}]` : label ? `[data-label=${label}]` : ''}`;
    };
    const parent =
      el.parentElement && el.parentElement !== document.body ? `${one(el.parentElement)} > ` : '';
    const text = (el.textContent ?? el.getAttribute('placeholder') ?? '').replace(/\s+/g, ' ').trim();
    const r = rect ?? el.getBoundingClientRect();
    const quoted = text ? ` "${text.length > 24 ? `${text.slice(0, 24)}…` : text}"` : '';
    return `${parent}${one(el)}${quoted} (${Math.round(r.width)}×${Math.round(r.height)})`;
  };

  /** Hidden on purpose: not rendered, invisible, clipped to a pixel (visually-hidden) or parked off screen. */
  const hidden = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return true;
    if (r.right < 0 || r.bottom < 0) return true; // the skip link and the default-submit copy, parked at -9999px
    for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) {
      const s = style(e);
      if (s.visibility === 'hidden' || s.opacity === '0') return true;
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || (s.clipPath && s.clipPath !== 'none')) return true;
      if (s.position === 'absolute' && e.getBoundingClientRect().width <= 1) return true;
    }
    return false;
  };

  /** Whether an ancestor scrolls horizontally: what overflows inside it is scrolled to, not lost. */
  const inScroller = (el: Element): boolean => {
    for (
      let e = el.parentElement;
      e && e !== document.body && e !== document.documentElement;
      e = e.parentElement
    )
      if (/(auto|scroll)/.test(style(e).overflowX)) return true;
    return false;
  };

  /** The box `el` must stay inside: the containing block's content box (the viewport for fixed/absolute boxes). */
  const container = (el: Element): { box: Element | null; left: number; right: number } => {
    const position = style(el).position;
    if (position === 'fixed' || position === 'absolute') return { box: null, left: 0, right: vw };
    let box = el.parentElement;
    while (box && /^(inline|contents)$/.test(style(box).display)) box = box.parentElement;
    if (!box || box === document.documentElement) return { box: null, left: 0, right: vw };
    const r = box.getBoundingClientRect();
    const s = style(box);
    return {
      box,
      left: r.left + px(s.borderLeftWidth) + px(s.paddingLeft),
      right: r.right - px(s.borderRightWidth) - px(s.paddingRight),
    };
  };

  // (a) the document scrolls sideways
  const docWidth = document.documentElement.scrollWidth;
  if (docWidth > vw) problems.push(`page is ${docWidth}px wide in a ${vw}px viewport`);

  // what a closed <details> holds beyond its summary is not shown (Chromium still lays it out)
  const all = [...document.body.querySelectorAll('*')].filter(
    (el) =>
      !skipTags.has(el.tagName) &&
      !el.closest('svg *, select, .visually-hidden, details:not([open]) > :not(summary)') &&
      !hidden(el),
  );

  // (b) elements sticking out of their container, text and placeholders out of their box
  const canvas = document.createElement('canvas').getContext('2d');
  for (const el of all) {
    if (inScroller(el)) continue;
    const r = el.getBoundingClientRect();
    const c = container(el);
    const out = Math.max(c.left - r.left, r.right - c.right);
    if (out > tolerance) {
      const where = c.box ? `its container ${describe(c.box)}` : 'the viewport';
      problems.push(`${describe(el, r)} sticks out ${Math.round(out)}px past ${where}`);
      continue;
    }
    const s = style(el);
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
    if (
      ownText &&
      s.display !== 'inline' &&
      s.overflowX === 'visible' &&
      el.scrollWidth > el.clientWidth + tolerance
    )
      problems.push(`${describe(el, r)}: its text needs ${el.scrollWidth}px of ${el.clientWidth}px`);
    const placeholder = el.getAttribute('placeholder');
    // (a textarea's placeholder wraps like its text: only a single-line field cuts it off)
    if (canvas && placeholder && el.tagName === 'INPUT' && (el as HTMLInputElement).value === '') {
      canvas.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const needs = canvas.measureText(placeholder).width;
      const has = el.clientWidth - px(s.paddingLeft) - px(s.paddingRight);
      if (needs > has + tolerance)
        problems.push(
          `${describe(el, r)}: its placeholder needs ${Math.ceil(needs)}px of ${Math.floor(has)}px`,
        );
    }
  }

  // (b) continued: a short term broken over lines (选/择, 文件类/型, a tab one character a line) in a table cell, a
  // control or a label: a squeezed column or box, where a CJK layout must keep the term whole
  /** The lines the element's visible text runs over (its text boxes' distinct tops, a few px apart or more). */
  const lines = (el: Element) => {
    const tops: number[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!(n.textContent ?? '').trim() || n.parentElement?.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const q of range.getClientRects()) if (q.width > 0) tops.push(q.top);
    }
    tops.sort((a, b) => a - b);
    return tops.filter((t, i) => i === 0 || t - tops[i - 1]! > 4).length;
  };
  for (const el of all) {
    if (!el.matches('th, td, a, button, summary, label, legend, dt, [role=tab]') || inScroller(el)) continue;
    if (style(el).display === 'inline') continue; // a link in running text wraps with it
    const text = (el.textContent ?? '').replace(/\s+/g, '');
    if (text.length < 2 || text.length > shortTermChars) continue;
    if (el.querySelector('input, select, textarea, img, br')) continue;
    const n = lines(el);
    if (n > 1) problems.push(`${describe(el)} breaks its ${text.length} characters over ${n} lines`);
  }

  // (c) targets under 24 × 24 without an exception (WCAG 2.2 2.5.8)
  const targets = all.filter(
    (el) =>
      el.matches('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]') &&
      !(el as HTMLButtonElement).disabled &&
      !el.parentElement?.closest('a[href], button, summary, [role=button]'),
  );
  const rects = new Map(targets.map((el) => [el, el.getBoundingClientRect()]));
  const small = (r: DOMRect) => r.width < minTarget || r.height < minTarget;
  /** Inline in a sentence: an inline box whose block holds text outside any target (the "Inline" exception). */
  const inSentence = (el: Element): boolean => {
    if (style(el).display !== 'inline') return false;
    let block = el.parentElement;
    while (block && style(block).display === 'inline') block = block.parentElement;
    if (!block) return false;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!/[\p{L}\p{N}]/u.test(n.textContent ?? '')) continue;
      if (!n.parentElement?.closest('a[href], button, summary, [role=button], label')) return true;
    }
    return false;
  };
  /** Distance from point (x, y) to rectangle `r` (0 inside it). */
  const distance = (x: number, y: number, r: DOMRect) =>
    Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  for (const el of targets) {
    const r = rects.get(el)!;
    if (!small(r) || inSentence(el)) continue;
    const cx = (r.left + r.right) / 2;
    const cy = (r.top + r.bottom) / 2;
    // the "Spacing" exception: a 24 px circle centred on it meets no other target, nor another small one's circle
    const crowded = targets.find((other) => {
      if (other === el || other.contains(el) || el.contains(other)) return false;
      const o = rects.get(other)!;
      if (small(o)) return Math.hypot((o.left + o.right) / 2 - cx, (o.top + o.bottom) / 2 - cy) < minTarget;
      return distance(cx, cy, o) < minTarget / 2;
    });
    if (crowded)
      problems.push(
        `target ${describe(el, r)} is under ${minTarget}×${minTarget}px and within ${minTarget / 2}px of ` +
          describe(crowded),
      );
  }

  // (d) axe, serious and critical only (moderate and minor ones are accessibility.spec.ts's to judge)
  const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResult> } }).axe;
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: axeTags },
    resultTypes: ['violations'],
  });
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const nodes = v.nodes.slice(0, 3).map((n) => {
      const why = n.any[0]?.message ?? n.all[0]?.message ?? '';
      return `${n.target.join(' ')}${why ? ` (${why})` : ''}`;
    });
    problems.push(`axe ${v.id} (${v.impact}), ${v.nodes.length}×: ${nodes.join('; ')}`);
  }
  return problems;
}
