/**
 * The certificate page's action (spec 01 §4, §6): the owner's download (intent `owner`, dataId) or a download with
 * the owner's extraction code; both end in a signed package URL the browser follows as a document, or a message.
 * Server-only, so the request schemas (zod) never reach the page's bundle.
 */
import { data, redirectDocument } from 'react-router';
import type { Route } from './+types/attestation';
import {
  CodeDownloadBody,
  type DownloadData,
  EvidenceMsg,
  EvidencePaths,
  OwnerDownloadBody,
} from '../../contract/evidence.ts';
import { apiCall } from '../lib/api.server.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { downloadOutcome } from './download-outcome.ts';

export async function attestationAction({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  let res;
  if (formData.get('intent') === 'owner') {
    const body = OwnerDownloadBody.safeParse({ dataId: formData.get('dataId') });
    if (!body.success) return data({ error: EvidenceMsg.evidenceNotFound }, { status: 400 });
    res = await authedCall<DownloadData>(request, context, EvidencePaths.ownerDownload, { body: body.data });
  } else {
    const body = CodeDownloadBody.safeParse({ code: formData.get('code'), baoquan: params.attestationId });
    if (!body.success) {
      return data(
        { error: body.error.issues[0]?.message ?? EvidenceMsg.extractCodeRequired },
        { status: 400 },
      );
    }
    res = await apiCall<DownloadData>(context, EvidencePaths.codeDownload, {
      body: body.data,
      urlPath: new URL(request.url).pathname,
    });
  }
  const outcome = downloadOutcome(res, (d) => d.packageUrl || d.downUrl);
  if (outcome.kind === 'info') return { notice: outcome.message };
  if (outcome.kind === 'error') return data({ error: outcome.message }, { status: 400 });
  return redirectDocument(outcome.url);
}
