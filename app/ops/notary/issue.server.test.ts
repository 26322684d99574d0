import { describe, expect, it } from 'vitest';
import { NotaryOpsMsg } from '../../../contract/notary-office-codes.ts';
import { PrintMsg, printMessage } from './issue.server.ts';

/** An error shaped like the gateway's (server/pdf), which the app knows by name only. */
const named = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

describe('printMessage', () => {
  it('reads a certificate view that is not there (order no longer in progress) as the wrong state', () => {
    expect(printMessage(named('PagePrintError', { status: 404 }))).toBe(NotaryOpsMsg.wrongState);
    expect(printMessage(named('PagePrintError', { status: 500 }))).toBe(PrintMsg.failed);
  });

  it('names a busy pool and a missing signer, and any other print failure as failed', () => {
    expect(printMessage(named('PoolBusyError'))).toBe(PrintMsg.busy);
    expect(printMessage(named('SigningUnavailableError'))).toBe(PrintMsg.unsigned);
    expect(printMessage(named('RenderTimeoutError'))).toBe(PrintMsg.failed);
  });

  it('leaves an unexpected error to be thrown', () => {
    expect(printMessage(new TypeError('bug'))).toBeNull();
    expect(printMessage(null)).toBeNull();
  });
});
