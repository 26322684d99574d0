/**
 * The action of the pages that preserve one uploaded file (/newAccessCard, /evidences-all/music/new): the multipart
 * body is streamed to the platform untouched (never parsed or buffered here, so a 2 GiB file costs the gateway no
 * memory), after the CSRF token in the action URL and the declared length are checked. Success lands on the new
 * certificate (Post/Redirect/Get); a refusal answers the platform's Chinese message, the KYC gate its own.
 */
import { data, redirect, type AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidenceMsg, type SaveEvidenceData } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrfInUrl } from '../lib/csrf.server.ts';
import { isKycRefusal } from '../kyc/gate.server.ts';

/** Multipart framing allowance on top of the file size when checking Content-Length early (bytes). */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Streams the request's multipart body to the platform's save call `path`.
 * @returns `{error}` (400, 413) or `{error, gated}` (412) for the form; throws the redirect to the certificate
 */
export async function forwardUpload(request: Request, context: AppLoadContext, path: string) {
  await validateCsrfInUrl(request, context);
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!contentType.startsWith('multipart/form-data') || !request.body) {
    return data({ error: EvidenceMsg.fileRequired }, { status: 400 });
  }
  if (Number(request.headers.get('Content-Length') ?? 0) > context.maxUploadBytes + MULTIPART_OVERHEAD) {
    return data({ error: Msg.fileTooLarge(context.maxUploadBytes) }, { status: 413 });
  }
  const res = await authedCall<SaveEvidenceData>(request, context, path, {
    method: 'POST',
    stream: { body: request.body, contentType },
  });
  if (isKycRefusal(res)) return data({ error: res.msg, gated: true }, { status: 412 });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  throw redirect(`/attestation/${encodeURIComponent(res.data.baoquan)}`);
}
