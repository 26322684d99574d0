/**
 * The notary office's downloads (docs/decisions/034-notary.md), one resource route for two URLs:
 * `/ops/notary/:id/file/:fileId` (a stored document of the order, or its notarial certificate) and
 * `/ops/notary/:id/evidence/:evidenceId` (an evidence's file, once the user authorised the office at step 3).
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/file';
import { ApiCode, type ApiEnvelope } from '../../../contract/envelope.ts';
import { NotaryMsg } from '../../../contract/notary-codes.ts';
import { NotaryOpsMsg, NotaryOpsPaths } from '../../../contract/notary-office-codes.ts';
import { OpsMsg } from '../../../contract/ops.ts';
import { upstreamGet } from '../../lib/api.server.ts';
import { getOpsSession, opsSessionStorageFor } from '../../lib/session.server.ts';
import { opsLoginUrl, requireOperator } from '../ops.server.ts';

const ID_RE = /^[1-9]\d{0,14}$/;

/** RFC 5987 `filename*` value: percent-encoded UTF-8, with the characters encodeURIComponent leaves but 5987 does not. */
function encode5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The file name the platform gave in its Content-Disposition (`filename*=UTF-8''…`), decoded, or null. */
function upstreamFileName(header: string | null): string | null {
  const m = /filename\*=UTF-8''([^;\s]+)/i.exec(header ?? '');
  if (!m) return null;
  try {
    const name = decodeURIComponent(m[1]!).trim();
    return name && !/[\p{Cc}/\\]/u.test(name) ? name : null;
  } catch {
    return null;
  }
}

/**
 * Streams the file to the operator: the platform's {@link NotaryOpsPaths.file} `<fileId>` or
 * {@link NotaryOpsPaths.evidence} `<orderId>/<evidenceId>` with the operator's token (role `notary`, every read
 * audited there), passed through unbuffered as an attachment, `private, no-store`. A file the platform does not
 * know answers 404, an evidence the user has not authorised 403 (用户尚未授权读取证据), an operator without the
 * role 403 (无权访问); an expired operator session ends and goes to /ops/login.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  // Two routes share this module: /file/:fileId (a document) and /evidence/:evidenceId (an evidence).
  const evidence = 'evidenceId' in params;
  const orderId = params.id;
  const itemId = ('evidenceId' in params ? params.evidenceId : params.fileId) ?? '';
  const notFound = evidence ? NotaryOpsMsg.notFound : NotaryMsg.documentNotFound;
  if (!ID_RE.test(orderId) || !ID_RE.test(itemId)) throw data({ message: notFound }, { status: 404 });
  const { token } = await requireOperator(request, context);
  const res = await upstreamGet(
    context,
    evidence ? `${NotaryOpsPaths.evidence}${orderId}/${itemId}` : `${NotaryOpsPaths.file}${itemId}`,
    { token, urlPath: new URL(request.url).pathname, signal: request.signal },
  );
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) {
    // An envelope instead of the file: the platform's refusal.
    const env = (await res.json().catch(() => null)) as Partial<ApiEnvelope> | null;
    const code = Number(env?.code ?? res.status);
    if (code === ApiCode.SESSION_EXPIRED) {
      const session = await getOpsSession(request, context);
      throw redirect(opsLoginUrl(request, true), {
        headers: { 'Set-Cookie': await opsSessionStorageFor(context).destroySession(session) },
      });
    }
    if (code === ApiCode.FORBIDDEN) throw data({ message: env?.msg || OpsMsg.forbidden }, { status: 403 });
    throw data({ message: notFound }, { status: 404 });
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw data({ message: notFound }, { status: 404 });
  }
  const name = evidence
    ? (upstreamFileName(res.headers.get('content-disposition')) ?? `evidence-${itemId}`)
    : `notary-${orderId}-${itemId}.pdf`;
  // The plain `filename` for old clients: ASCII only, the original extension kept.
  const fallback = evidence
    ? `evidence-${itemId}${/\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? ''}`
    : `notary-${orderId}-${itemId}.pdf`;
  const length = res.headers.get('content-length');
  return new Response(res.body, {
    headers: {
      'Content-Type': evidence ? 'application/octet-stream' : 'application/pdf',
      'Content-Disposition': `attachment; filename="${fallback}"; filename*=UTF-8''${encode5987(name)}`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(length ? { 'Content-Length': length } : {}),
    },
  });
}
