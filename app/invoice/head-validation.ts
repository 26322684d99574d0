/**
 * Browser validation of the invoice head form with the contract's InvoiceHeadBody, loaded on the form's first focus
 * (app/shell/lazy-validation.ts); the action validates with the same schema.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { InvoiceHeadBody } from '../../contract/invoice.ts';

/** Conform's submission of the head form's data. */
export const validateHead = (formData: FormData) => parseWithZod(formData, { schema: InvoiceHeadBody });
