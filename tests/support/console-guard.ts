/**
 * Vitest setup file (vitest.config.ts `setupFiles`): a test fails when it calls `console.error` unexpectedly. The
 * spy is set in `beforeEach` (the messages still print) and checked in `afterEach`; a test that expects an error
 * calls {@link allowConsoleError} first, with a comment saying why the error is expected. Errors logged outside a
 * test (in `beforeAll`/`afterAll`) are not checked.
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';
import { format } from 'node:util';

let spy: MockInstance<typeof console.error> | undefined;
let allowed = false;

/** Lets the running test log with `console.error` (for a test that provokes an error on purpose). */
export function allowConsoleError(): void {
  allowed = true;
}

beforeEach(() => {
  allowed = false;
  spy = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  spy?.mockRestore();
  spy = undefined;
  if (allowed || calls.length === 0) return;
  const first = format(...(calls[0] as unknown[]));
  throw new Error(
    `unexpected console.error (${calls.length} call${calls.length === 1 ? '' : 's'}; call allowConsoleError() ` +
      `in a test that expects it): ${first.slice(0, 2000)}`,
  );
});
