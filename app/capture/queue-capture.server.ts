/**
 * The action of the capture forms (/newWeb, /newProcess; decision 037): reads the form (CSRF checked), parses it with
 * the contract's schema — a list intent (添加步骤, 删除) or a bad value answers the form back — queues the job on the
 * platform and redirects to where its progress shows (Post/Redirect/Get). A user not yet verified gets the KYC gate
 * (412), a refusal of the platform its message on the form.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type AppLoadContext } from 'react-router';
import type { z } from 'zod';
import { isSuccess } from '../../contract/envelope.ts';
import type { CaptureJobView } from '../../contract/capture.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { isKycRefusal } from '../kyc/gate.server.ts';

/** How one form queues its job. */
export interface CaptureForm<Schema extends z.ZodType> {
  schema: Schema;
  /** The platform call that queues the job (CapturePaths.createWeb / createProcess). */
  path: string;
  /** The call's form-encoded body, from the parsed value and the raw payload of the form. */
  body(
    value: z.output<Schema>,
    payload: Record<string, unknown>,
  ): Record<string, string | number | undefined>;
  /** Where the queued job's progress shows. */
  next(job: CaptureJobView): string;
}

/** Handles a capture form's POST. @returns the form's answer, or throws the redirect */
export async function queueCapture<Schema extends z.ZodType>(
  request: Request,
  context: AppLoadContext,
  form: CaptureForm<Schema>,
) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const submission = parseWithZod(formData, { schema: form.schema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const res = await authedCall<CaptureJobView>(request, context, form.path, {
    body: form.body(submission.value as z.output<Schema>, submission.payload),
  });
  if (isKycRefusal(res)) return data({ result: submission.reply(), gated: res.msg }, { status: 412 });
  if (!isSuccess(res.code))
    return data({ result: submission.reply({ formErrors: [res.msg] }) }, { status: 400 });
  throw redirect(form.next(res.data));
}
