/**
 * Browser validation of the /register and /forgetpwd form (the schema chosen by the pressed button), loaded on the
 * form's first focus (app/shell/lazy-validation.ts); the action validates with the same schemas.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { schemaFor } from './sms-password.schema.ts';

/** Conform's submission of the form's data for the pressed button (`intent`). */
export const validateSmsPassword = (formData: FormData) =>
  parseWithZod(formData, { schema: schemaFor(formData.get('intent')) });
