/**
 * Busy submit buttons with JavaScript (decision 030): the button that submitted a form shows
 * `aria-busy="true"` (styled in forms.css: dimmed, a trailing ellipsis, the progress cursor) until the answer
 * arrives, and a second submit of that form is refused meanwhile (no double preservation, no double order).
 * - React Router forms: busy while the router's navigation is submitting or loading its answer; a submission
 *   Conform stopped as invalid never starts one, so it never shows busy.
 * - Document forms (`reloadDocument`, or forms the router does not handle): busy from the submit until the page
 *   goes (bfcache `pageshow` clears it), or at most {@link DOCUMENT_BUSY_MS} when the answer is a download and the
 *   page stays.
 * Without JavaScript nothing changes: the browser's own loading indicator is the busy state.
 */
import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';

/** How long a document submission's button stays busy when the page does not go (a download), in ms. */
export const DOCUMENT_BUSY_MS = 15_000;

/** The visible button a submission came from (Enter submits through the hidden DefaultSubmit copy). */
function visibleSubmitter(form: HTMLFormElement, submitter: HTMLElement | null): HTMLElement | null {
  if (submitter && !submitter.classList.contains('default-submit')) return submitter;
  return form.querySelector<HTMLElement>('button[type="submit"]:not(.default-submit), input[type="submit"]');
}

function setBusy(el: HTMLElement | null, busy: boolean): void {
  if (!el) return;
  if (busy) el.setAttribute('aria-busy', 'true');
  else el.removeAttribute('aria-busy');
}

/** Installs the behaviour for the whole document; call once, in the root route. */
export function useSubmitBusy(): void {
  const navigation = useNavigation();
  const last = useRef<{ button: HTMLElement | null; at: number } | null>(null);
  const marked = useRef<HTMLElement | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      if (form.querySelector('[aria-busy="true"]')) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      const button = visibleSubmitter(form, event.submitter as HTMLElement | null);
      last.current = { button, at: Date.now() };
      // After every handler ran: a submission nobody prevented is the browser's own (a document load).
      setTimeout(() => {
        if (event.defaultPrevented) return;
        setBusy(button, true);
        marked.current = button;
        clearTimeout(timer);
        timer = setTimeout(() => setBusy(button, false), DOCUMENT_BUSY_MS);
      }, 0);
    };
    const onPageShow = () => setBusy(marked.current, false);
    document.addEventListener('submit', onSubmit, true);
    window.addEventListener('pageshow', onPageShow);
    // The page's enhancements are live from here (tests wait for it before they expect them).
    document.documentElement.setAttribute('data-enhanced', '');
    return () => {
      clearTimeout(timer);
      document.removeEventListener('submit', onSubmit, true);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, []);

  useEffect(() => {
    if (navigation.state === 'submitting' && last.current && Date.now() - last.current.at < 1000) {
      marked.current = last.current.button;
      setBusy(marked.current, true);
    } else if (navigation.state === 'idle') {
      setBusy(marked.current, false);
      marked.current = null;
    }
  }, [navigation.state]);
}
