/**
 * The URL of a step of a notarisation order (spec 02 §2, §4 "Continue, by step"): steps 1–4 at
 * `/attestation-list/readingMaterial/{applicationForm|signature|deCode|pay}/{orderId}/{type}`, 5 (done) the order's
 * detail `/notary/detail?orderId=&type=`. Shared by the pages and their loaders; no I/O.
 */
import { STEP_SEGMENT, type NotaryStepCode } from '../../contract/notary-codes.ts';

/** The path of `step` of order `orderId` of `type`. */
export function stepPath(step: NotaryStepCode, orderId: number | string, type: number | string): string {
  if (step === 5) return `/notary/detail?orderId=${orderId}&type=${type}`;
  return `/attestation-list/readingMaterial/${STEP_SEGMENT[step]}/${orderId}/${type}`;
}
