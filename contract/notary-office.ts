/**
 * The notary office's console queue (docs/decisions/034-notary.md): operators with the `notary`
 * role see paid orders, read the order's signed documents and, once the user authorised it (step 3), the evidences
 * the order covers (every read in the audit log), and decide: accept, ask for more material, terminate (refund) or
 * issue. This module holds the request schemas (zod); the codes, paths, messages and types are in
 * notary-office-codes.ts, re-exported here. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { NotaryStep } from './notary-codes.ts';
import { NotaryOpsMsg, NotaryQueueState } from './notary-office-codes.ts';
import { courierNumber, freeText, rowId } from './validators.ts';

export * from './notary-office-codes.ts';

export const NotaryQueueQuery = z.object({
  state: z.coerce.number().int().min(1).max(3).default(NotaryQueueState.waiting),
  page: z.coerce.number().int().min(1).max(100000).default(1),
});
export const NotaryOpsIdBody = z.object({ id: rowId(NotaryOpsMsg.notFound) });
export const NotaryReturnBody = NotaryOpsIdBody.extend({
  step: z.coerce
    .number({ error: NotaryOpsMsg.stepInvalid })
    .int()
    .min(NotaryStep.applicationForm, NotaryOpsMsg.stepInvalid)
    .max(NotaryStep.deCode, NotaryOpsMsg.stepInvalid),
  remark: freeText('说明', 200, true),
});
export const NotaryShipBody = NotaryOpsIdBody.extend({
  courierNumber: courierNumber(NotaryOpsMsg.courierRequired, NotaryOpsMsg.courierInvalid),
});
export const NotaryTerminateBody = NotaryOpsIdBody.extend({ remark: freeText('说明', 200, true) });
