/**
 * The notary office's 出证 (docs/decisions/034-notary.md): the gateway prints the notarial
 * certificate view (/ops/notary/:id/certificate) as the operator who asks (their console session) to a PDF signed by
 * the platform's document signer, and uploads it to the platform, which stores it as the order's document 5 and
 * marks the order issued.
 */
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../../contract/envelope.ts';
import { NotaryOpsMsg, NotaryOpsPaths } from '../../../contract/notary-office-codes.ts';
import { multipartPdfs } from '../../lib/api.server.ts';
import { printFailure } from '../../lib/print-failure.ts';
import { opsCall } from '../ops.server.ts';

/** Why a certificate could not be printed (ours). */
export const PrintMsg = {
  unavailable: '出证服务不可用',
  busy: '出证服务繁忙，请稍后重试',
  failed: '公证书生成失败，请稍后重试',
  unsigned: '公证书签名服务不可用，请稍后重试',
} as const;

/** The message of a failed print, or null for an error that is none of the printer's. */
export function printMessage(err: unknown): string | null {
  switch (printFailure(err)) {
    case 'not-found':
      // The certificate view answers 404 once the order is no longer in progress.
      return NotaryOpsMsg.wrongState;
    case 'busy':
      return PrintMsg.busy;
    case 'failed':
      return PrintMsg.failed;
    case 'unsigned':
      return PrintMsg.unsigned;
    default:
      return null;
  }
}

/**
 * Prints and uploads the notarial certificate of order `id`.
 * @returns null once issued, else the message to show and the page's status
 * @throws what opsCall throws (408: to /ops/login; 403: 无权访问); an unexpected error of the printing
 */
export async function issueCertificate(
  request: Request,
  context: AppLoadContext,
  id: number,
): Promise<{ error: string; status: number } | null> {
  if (!context.printPage) return { error: PrintMsg.unavailable, status: 503 };
  let pdf: Buffer;
  try {
    pdf = await context.printPage(
      `/ops/notary/${id}/certificate`,
      request.headers.get('cookie'),
      '公证书',
      'notary',
    );
  } catch (err) {
    const error = printMessage(err);
    if (error === null) throw err;
    return { error, status: error === NotaryOpsMsg.wrongState ? 400 : 503 };
  }
  const res = await opsCall(request, context, NotaryOpsPaths.issue, {
    method: 'POST',
    stream: multipartPdfs({ id: String(id) }, [
      { field: 'certificate', name: 'certificate.pdf', bytes: new Uint8Array(pdf) },
    ]),
  });
  return isSuccess(res.code) ? null : { error: res.msg, status: 400 };
}
