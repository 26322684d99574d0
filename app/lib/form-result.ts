/** Conform submission results the actions build themselves, for answers no schema produced. No I/O. */
import type { SubmissionResult } from '@conform-to/react';

/** A Conform submission result carrying one form-level message (the form's error summary shows it). */
export function formErrorResult(message: string): SubmissionResult<string[]> {
  return { status: 'error', error: { '': [message] } };
}
