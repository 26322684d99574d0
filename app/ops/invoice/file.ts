/**
 * The operator's download of an issued invoice file (decision 022): a resource route under the finance queue.
 */
import { data } from 'react-router';
import type { Route } from './+types/file';
import { InvoiceMsg, InvoiceOpsPaths } from '../../../contract/invoice.ts';
import { upstreamGet } from '../../lib/api.server.ts';
import { requireOperator } from '../ops.server.ts';

/**
 * Streams an issued file of an application to the operator (`/ops/invoice/:id/file/:fileId`, a resource route):
 * the platform's {@link InvoiceOpsPaths.file} with the operator's token (finance role, audited there), passed through
 * unbuffered as an attachment, `no-store`. A file the platform does not know answers 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const fileId = params.fileId;
  if (!/^[1-9]\d{0,14}$/.test(fileId)) throw data({ message: InvoiceMsg.fileNotFound }, { status: 404 });
  const { token } = await requireOperator(request, context);
  const res = await upstreamGet(context, `${InvoiceOpsPaths.file}${fileId}`, {
    token,
    urlPath: new URL(request.url).pathname,
    signal: request.signal,
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !res.body || type.startsWith('application/json')) {
    await res.body?.cancel();
    throw data({ message: InvoiceMsg.fileNotFound }, { status: 404 });
  }
  const ext = type.includes('pdf') ? 'pdf' : 'ofd';
  return new Response(res.body, {
    headers: {
      'Content-Type': type,
      'Content-Disposition': `attachment; filename="invoice-${fileId}.${ext}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(res.headers.get('content-length') ? { 'Content-Length': res.headers.get('content-length')! } : {}),
    },
  });
}
