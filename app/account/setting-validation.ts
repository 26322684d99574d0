/**
 * Browser validation of the /setting forms with the contract's schemas, loaded on a form's first focus
 * (app/shell/lazy-validation.ts); the action validates with the same schemas.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { EditPasswordBody, ExtractCodeBody } from '../../contract/account.ts';

/** Conform's submission of the password form's data. */
export const validatePassword = (formData: FormData) => parseWithZod(formData, { schema: EditPasswordBody });

/** Conform's submission of the extraction code form's data. */
export const validateExtractCode = (formData: FormData) =>
  parseWithZod(formData, { schema: ExtractCodeBody });
