/**
 * What a certificate screen does with the answer of a download call (spec 01 §8, spec 02 §8): success → follow the
 * URL; the data value "certificate being generated" (证书生成中) → show the message as information, not as an error,
 * whatever the code (contract `isCertificateGenerating`); any other non-success → show its msg as an error.
 */
import { isSuccess, type ApiEnvelope } from '../../contract/envelope.ts';
import { EvidenceMsg } from '../../contract/evidence-codes.ts';
import { isCertificateGenerating } from '../../contract/evidence-share.ts';

export type DownloadOutcome =
  { kind: 'go'; url: string } | { kind: 'info'; message: string } | { kind: 'error'; message: string };

/**
 * Classifies a download answer. `url` picks the URL to follow from a success's data (e.g. the package URL).
 * A success without a URL reads as an error with its msg.
 */
export function downloadOutcome<T>(res: ApiEnvelope<T>, url: (data: T) => string): DownloadOutcome {
  if (isCertificateGenerating(res)) {
    return { kind: 'info', message: res.msg?.trim() || EvidenceMsg.certificateGenerating };
  }
  if (!isSuccess(res.code)) return { kind: 'error', message: res.msg };
  const target = res.data ? url(res.data) : '';
  return target ? { kind: 'go', url: target } : { kind: 'error', message: res.msg };
}
