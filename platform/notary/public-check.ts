/**
 * The public check of a notarial certificate (decision 034; `GET /api/notarial/check`, behind
 * `/queryAuthentication/notarial`): anyone holding the number learns whether it was issued, when, for an order of
 * which date, and whether the PDF they hold (its SHA-256) is the issued one; the preservation numbers it covers and
 * the issued file's hash only with that file's SHA-256 (certificate numbers follow each other, and a preservation
 * number opens its certificate). No personal data. The route counts it against the public lookups' budget per
 * client IP.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  NOTARIAL_CERTIFICATE_TYPE,
  Notarial,
  type NotarialCheckData,
  type NotarialCheckQuery,
  NotaryMsg,
  notaryType,
} from '../../contract/notary.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { orderEvidences } from './service.ts';

/**
 * The public check of a notarial certificate by its number (and optionally the SHA-256 of the PDF the asker holds):
 * that it was issued, when, for an order of which date, and whether the PDF is the issued one; with the issued PDF's
 * SHA-256 also its preservation numbers and that hash (`baoquan` and `sha256` null otherwise). No personal data.
 * @throws ApiError 404 certificateNotFound for a number never issued
 */
export async function notarialCheck(
  db: Kysely<Database>,
  q: NotarialCheckQuery,
  office: string,
): Promise<NotarialCheckData> {
  const o = await db
    .selectFrom('notary_orders as o')
    .innerJoin('notary_documents as d', (j) =>
      j.onRef('d.order_id', '=', 'o.id').on('d.doc_type', '=', NOTARIAL_CERTIFICATE_TYPE),
    )
    .select(['o.id', 'o.type', 'o.certificate_no', 'o.created_at', 'o.issued_at', 'd.sha256'])
    .where('o.certificate_no', '=', q.number)
    .where('o.notarial', '=', Notarial.succeeded)
    .executeTakeFirst();
  if (!o) throw new ApiError(ApiCode.NOT_FOUND, NotaryMsg.certificateNotFound);
  const matches = q.hash === undefined ? null : q.hash === o.sha256;
  const evidences = matches ? await orderEvidences(db, Number(o.id)).select('e.baoquan').execute() : null;
  return {
    number: o.certificate_no!,
    issuedAt: formatBeijing(Number(o.issued_at)),
    orderTime: formatBeijing(Number(o.created_at)),
    typeName: notaryType(Number(o.type))?.name ?? '',
    office,
    baoquan: evidences ? evidences.map((e) => e.baoquan) : null,
    sha256: matches ? o.sha256 : null,
    hashMatches: matches,
  };
}
