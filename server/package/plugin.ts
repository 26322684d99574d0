/**
 * Evidence package downloads (spec 01 §2.4, §6; docs/decisions/007-pdf-and-packages.md), served by the
 * gateway as streamed ZIPs: `GET /attestation/:baoquan/package.zip?exp=&sig=` (one evidence) and `GET
 * /attestation-list/download/batch.zip?items=<baoquan>.<exp>.<sig>,…` (up to 100, a folder each). Every
 * signature is checked by the platform's authorize call; the ZIP holds proof.json, certificate.pdf and the
 * original. Registered on the root scope after the PDF plugin (it uses `app.certificatePdf`), outside
 * compression.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EvidenceMsg } from '../../contract/evidence.ts';
import { contentDisposition, replyRenderError } from '../pdf/plugin.ts';
import { BAOQUAN_PATH_RE } from '../pdf/renderer.ts';
import { httpPackageUpstream, type PackageGrant, type PackageUpstream } from './upstream.ts';
import {
  createZip,
  preparePackage,
  writePackages,
  type PackageSources,
  type PreparedPackage,
} from './zip.ts';

/** Most evidences in one batch ZIP (spec 01 §2.4 batch download). */
export const BATCH_MAX_ITEMS = 100;
/** Authorize calls in flight at once for a batch. */
const AUTHORIZE_CONCURRENCY = 8;

/** Options of {@link packagePlugin}. */
export interface PackagePluginOptions {
  /** Base URL of the upstream API without a trailing slash. */
  upstreamUrl: string;
  /** Replaces the upstream calls (tests). */
  upstream?: PackageUpstream;
  /** Replaces the certificate source; default `app.certificatePdf.getPdf(baoquan, 'zh')`. */
  certificate?: PackageSources['certificate'];
}

/** `yyyymmddHHMM` in Beijing time (UTC+8, no daylight saving) of `date`. */
export function beijingStamp(date: Date): string {
  const d = new Date(date.getTime() + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/** One `<baoquan>.<exp>.<sig>` of a batch URL. */
export interface BatchItemRef {
  baoquan: string;
  exp: string;
  sig: string;
}

/**
 * Parses the `items` query of a batch URL: comma-separated `<baoquan>.<exp>.<sig>`, duplicates dropped.
 * @returns the items, or a message (Chinese, shown to the user) when the list is empty, too long or malformed
 */
export function parseBatchItems(raw: unknown): BatchItemRef[] | { error: string; status: 400 | 403 } {
  if (typeof raw !== 'string' || raw.trim() === '')
    return { error: EvidenceMsg.selectEvidenceToDownload, status: 400 };
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  const items: BatchItemRef[] = [];
  for (const part of parts) {
    const [baoquan = '', exp = '', sig = '', ...rest] = part.split('.');
    if (
      rest.length > 0 ||
      !BAOQUAN_PATH_RE.test(baoquan) ||
      !/^\d{1,12}$/.test(exp) ||
      !/^[0-9a-f]{16,128}$/i.test(sig)
    )
      return { error: EvidenceMsg.downloadLinkInvalid, status: 403 };
    if (seen.has(baoquan)) continue;
    seen.add(baoquan);
    items.push({ baoquan, exp, sig });
  }
  if (items.length === 0) return { error: EvidenceMsg.selectEvidenceToDownload, status: 400 };
  if (items.length > BATCH_MAX_ITEMS)
    return { error: EvidenceMsg.batchTooMany(BATCH_MAX_ITEMS), status: 400 };
  return items;
}

/** Runs `fn` over `items` with at most `limit` at once; resolves with the results in order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}

function text(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/**
 * Starts the ZIP response and writes the packages into it in the background. A failure after the headers went out
 * destroys the connection (the client sees a broken download, never a truncated "complete" ZIP); a client that goes
 * away stops the work and the upstream download.
 */
function streamZip(
  request: FastifyRequest,
  reply: FastifyReply,
  fileName: string,
  fallbackName: string,
  grants: PackageGrant[],
  sources: PackageSources,
  opts: { folders: boolean; first: PreparedPackage; controller: AbortController },
): FastifyReply {
  const { controller } = opts;
  const archive = createZip();
  // Never archive.abort(): it may end the stream normally, and a truncated ZIP would look complete. Destroying the
  // response makes the client see a broken transfer instead.
  const stop = () => {
    controller.abort();
    archive.destroy();
    reply.raw.destroy();
  };
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) stop();
  });
  archive.on('warning', (err) => request.log.warn({ err }, 'package: zip warning'));
  writePackages(archive, grants, sources, {
    folders: opts.folders,
    signal: controller.signal,
    first: opts.first,
  }).then(
    () => request.log.info({ items: grants.length, bytes: archive.pointer() }, 'package: sent'),
    (err: unknown) => {
      if (controller.signal.aborted) {
        request.log.info({ items: grants.length }, 'package: client went away');
        return;
      }
      request.log.error({ err }, 'package: failed while streaming');
      stop();
    },
  );
  return reply
    .code(200)
    .type('application/zip')
    .header('content-disposition', contentDisposition('attachment', fileName, fallbackName))
    .header('cache-control', 'private, no-store')
    .send(archive);
}

async function packageRoutes(app: FastifyInstance, opts: PackagePluginOptions): Promise<void> {
  const upstream = opts.upstream ?? httpPackageUpstream(opts.upstreamUrl);
  const sources: PackageSources = {
    upstream,
    certificate: opts.certificate ?? ((baoquan) => app.certificatePdf.getPdf(baoquan, 'zh')),
  };

  app.get<{ Params: { baoquan: string }; Querystring: { exp?: string; sig?: string } }>(
    '/attestation/:baoquan/package.zip',
    async (request, reply) => {
      const { baoquan } = request.params;
      const { exp, sig } = request.query;
      if (!BAOQUAN_PATH_RE.test(baoquan) || !exp || !sig)
        return text(reply, 403, EvidenceMsg.downloadLinkInvalid);
      const controller = new AbortController();
      let first: PreparedPackage;
      try {
        const auth = await upstream.authorize(baoquan, exp, sig);
        if (!auth.ok) {
          const fallback =
            auth.status === 403 ? EvidenceMsg.downloadLinkInvalid : EvidenceMsg.evidenceNotFound;
          return text(reply, auth.status, auth.msg ?? fallback);
        }
        // Everything that can fail with a meaningful status happens before the first byte goes out.
        first = await preparePackage(auth.grant, sources, controller.signal, true);
      } catch (err) {
        controller.abort();
        return replyRenderError(reply, err);
      }
      return streamZip(request, reply, `${baoquan}.zip`, `${baoquan}.zip`, [first.grant], sources, {
        folders: false,
        first,
        controller,
      });
    },
  );

  app.get<{ Querystring: { items?: string } }>(
    '/attestation-list/download/batch.zip',
    async (request, reply) => {
      const parsed = parseBatchItems(request.query.items);
      if (!Array.isArray(parsed)) return text(reply, parsed.status, parsed.error);
      const controller = new AbortController();
      let grants: PackageGrant[];
      let first: PreparedPackage;
      try {
        const answers = await mapLimit(parsed, AUTHORIZE_CONCURRENCY, (item) =>
          upstream.authorize(item.baoquan, item.exp, item.sig),
        );
        // One bad or expired signature spoils the URL: it was issued as a whole.
        const refused = answers.find((a) => !a.ok);
        if (refused && !refused.ok)
          return text(reply, 403, (refused.status === 403 && refused.msg) || EvidenceMsg.downloadLinkInvalid);
        grants = answers.map((a) => (a as { ok: true; grant: PackageGrant }).grant);
        first = await preparePackage(grants[0]!, sources, controller.signal, false);
      } catch (err) {
        controller.abort();
        return replyRenderError(reply, err);
      }
      const stamp = beijingStamp(new Date());
      return streamZip(
        request,
        reply,
        `证据批量下载-${stamp}.zip`,
        `evidence-batch-${stamp}.zip`,
        grants,
        sources,
        {
          folders: true,
          first,
          controller,
        },
      );
    },
  );
}

/** Registers the package routes in their own scope (no compression, no body parsing). */
export const packagePlugin = packageRoutes;
