/**
 * Browser validation of the hash evidence form with the contract's SaveHashBody, loaded on the form's first focus
 * (app/shell/lazy-validation.ts); the action validates with the same schema.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { SaveHashBody } from '../../contract/evidence.ts';

/** Conform's submission of the hash form's data. */
export const validateHash = (formData: FormData) => parseWithZod(formData, { schema: SaveHashBody });
