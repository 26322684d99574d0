/**
 * Server-only helpers of the notarisation pages (spec 02 §2 "Notary list", "Notary detail", "Notary order
 * payment", §4 "Continue, by step"; docs/decisions/034-notary.md): the step pages' guard — each step page loads the
 * order and redirects a step the order has not reached to the order's current step (a later step's URL cannot be
 * reached before the earlier ones are done), a closed order to the list and a finished one to its detail — and the
 * step URLs.
 */
import { data, redirect, type AppLoadContext } from 'react-router';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import {
  NotaryMsg,
  NotaryPaths,
  NotaryPay,
  type NotaryDetailData,
  type NotaryStepCode,
} from '../../contract/notary.ts';
import { authedCall } from '../lib/auth.server.ts';
import { stepPath } from './step-path.ts';

/** True for an order id as the pages accept it in a URL or form: 1–15 digits, no leading zero. */
export function isOrderId(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[1-9]\d{0,14}$/.test(value);
}

/** A 404 page with `message`. */
export function notFound(message: string = NotaryMsg.orderNotFound) {
  return data({ message }, { status: 404 });
}

/** The order's id from the route's params. @throws a 404 response when malformed */
export function orderIdOf(params: { orderId?: string }): number {
  if (!isOrderId(params.orderId)) throw notFound();
  return Number(params.orderId);
}

/**
 * Loads the user's order for the step page of `step`: the order's info (and its first page of evidences).
 * @throws a redirect to the order's current step when it has not reached `step` (to its detail when that is 5), or
 *   to the same step with the order's own type; a redirect to /notary when the order is closed; a 404 response for
 *   an unknown or another user's order
 */
export async function loadStep(
  request: Request,
  context: AppLoadContext,
  params: { orderId?: string; type?: string },
  step: Exclude<NotaryStepCode, 5>,
): Promise<NotaryDetailData & { orderId: number }> {
  const orderId = orderIdOf(params);
  const res = await authedCall<NotaryDetailData>(request, context, NotaryPaths.detail, {
    query: { orderId, page: 1 },
  });
  if (Number(res.code) === ApiCode.NOT_FOUND) throw notFound(res.msg);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const { info } = res.data;
  const noStore = { headers: { 'Cache-Control': 'no-store' } };
  if (info.pay === NotaryPay.cancelled || info.notarial !== null) throw redirect('/notary', noStore);
  // A step not reached yet: the order's current one. An earlier step stays readable (it shows what was done).
  if (info.step < step) throw redirect(stepPath(info.step, orderId, info.type), noStore);
  if (params.type !== String(info.type)) throw redirect(stepPath(step, orderId, info.type), noStore);
  return { ...res.data, orderId };
}
