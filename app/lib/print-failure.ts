/**
 * What went wrong when the gateway printed a private page to a signed PDF (`context.printPage`, server/pdf/
 * page-printer.ts), told by the error's name (the app does not import the gateway's classes): the page's own
 * status (a 404 of the page, any other non-2xx or a redirect), the browser pool (busy, timed out, gone, closed) or
 * the signer. No I/O.
 */

/** The kinds of print failure a page tells its user about. */
export type PrintFailure = 'not-found' | 'failed' | 'busy' | 'unsigned';

/**
 * The kind of `err`, or null for an error that is none of the printer's (a bug: let it surface).
 */
export function printFailure(err: unknown): PrintFailure | null {
  const e = err as { name?: unknown; status?: unknown } | null;
  switch (e?.name) {
    case 'PagePrintError':
      return e.status === 404 ? 'not-found' : 'failed';
    case 'PoolBusyError':
      return 'busy';
    case 'RenderTimeoutError':
    case 'BrowserGoneError':
    case 'PoolClosedError':
      return 'failed';
    case 'SigningUnavailableError':
      return 'unsigned';
    default:
      return null;
  }
}
