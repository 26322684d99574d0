/**
 * Browser validation of the login form with the contract's LoginBody, loaded on the form's first focus
 * (app/shell/lazy-validation.ts); the action validates with the same schema.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { LoginBody } from '../../contract/account.ts';

/** Conform's submission of the login form's data. */
export const validateLogin = (formData: FormData) => parseWithZod(formData, { schema: LoginBody });
