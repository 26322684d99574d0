/**
 * The gateway's certificate PDF routes, `GET /attestation/:baoquan.pdf` and `GET /English/attestation/:baoquan.pdf`,
 * and the `app.certificatePdf` renderer the evidence packages use. Registered on the root scope by `server/app.ts`
 * (outside the compressing UI scope: PDFs go out as they are); the browser closes with the gateway (onClose). The
 * gateway renders for visitors only: certificates are rendered ahead of their first visitor by the background worker
 * into the same cache (server/worker/; decision 064).
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Msg } from '../../contract/messages.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';
import { BrowserPool, PoolBusyError, PoolClosedError, RenderTimeoutError } from './browser-pool.ts';
import { loadPdfConfig, type PdfConfig } from './config.ts';
import type { SiteFacts } from '../config/gateway.ts';
import { PlatformCmsSource, signPdf, SigningUnavailableError } from './pades.ts';
import {
  CertificateRenderer,
  EvidenceNotFoundError,
  UpstreamError,
  type CertificateLang,
} from './renderer.ts';
import { plainPageHtml } from '../http/plain-page.ts';
import { loopbackOrigin } from '../http/loopback.ts';
import { PagePrinter } from './page-printer.ts';
import { certificateCacheDir, certificateSigner, certificateTemplateVersion } from './certificate-setup.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders and caches certificate PDFs (server/pdf). */
    certificatePdf: CertificateRenderer;
    /** Prints the gateway's private pages (notarisation documents, notarial certificates) to signed PDFs. */
    pagePrinter: PagePrinter;
  }
}

/** Options of {@link pdfPlugin}. */
export interface PdfPluginOptions {
  /** Base URL of the upstream API without a trailing slash. */
  upstreamUrl: string;
  /** The embedded platform's call without HTTP (evidence views, CMS signatures); none in front of UPSTREAM_URL. */
  platformCall?: PlatformCall | undefined;
  /** The gateway's DATA_DIR; PDFs are cached under `${dataDir}/cache/pdf`. */
  dataDir: string;
  /** The React Router build directory: its server bundle's hash is the template version. */
  buildDirectory: string;
  /** Development mode: no reuse of cached PDFs (templates change without a build). */
  development: boolean;
  /**
   * The platform's internal key: certificate PDFs are signed (PAdES) by the platform's document signer with it.
   * Absent: PDFs are served unsigned and the start logs a warning.
   */
  internalKey?: string;
  /** Renderer settings (CHROMIUM_PATH, PDF_POOL_SIZE, PDF_TIMEOUT_MS, …; server/pdf/config.ts); default: the schema's. */
  pdf?: PdfConfig | undefined;
  /** PUBLIC_URL and the issuer the PDFs print and sign with (server/config/gateway.ts). */
  site: SiteFacts;
}

/**
 * The short page of spec 01 §2.8 for an unknown evidence (a PDF link is opened as a document); its home link under
 * `basePath` ('' or `/cunzheng`, server/http/base-path.ts).
 */
export function notFoundHtml(basePath: string): string {
  return plainPageHtml({ title: '页面不存在', text: Msg.notFoundPage, basePath });
}

/** Plain-text answers of the PDF and package routes when something other than the evidence is wrong. */
export const RenderMsg = {
  busy: '证书生成繁忙，请稍后重试',
  timeout: '证书生成超时，请稍后重试',
  failed: '证书生成失败，请稍后重试',
} as const;

/**
 * Answers a failure of the renderer (or the upstream) in plain text, or with the 404 page; returns the reply.
 * Used by the package routes too.
 */
export function replyRenderError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof EvidenceNotFoundError) {
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(notFoundHtml(reply.server.basePath ?? ''));
  }
  const text = (status: number, body: string) =>
    reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(body);
  if (err instanceof PoolBusyError || err instanceof PoolClosedError) {
    reply.header('retry-after', '5');
    return text(503, RenderMsg.busy);
  }
  if (err instanceof RenderTimeoutError) {
    reply.log.warn({ err }, 'pdf: render timed out');
    return text(504, RenderMsg.timeout);
  }
  if (err instanceof UpstreamError || err instanceof SigningUnavailableError) {
    reply.log.warn({ err }, 'pdf: upstream failed');
    return text(502, Msg.connectionFailed);
  }
  reply.log.error({ err }, 'pdf: render failed');
  return text(500, RenderMsg.failed);
}

/** `Content-Disposition` with an ASCII fallback and the RFC 5987 `filename*` (RFC 6266 §4.3). */
export function contentDisposition(
  type: 'inline' | 'attachment',
  fileName: string,
  fallback: string,
): string {
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const ascii = fallback.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The gateway's listening address plus its BASE_PATH as a base URL its own browser can open (0.0.0.0 → 127.0.0.1,
 * :: → [::1]), e.g. `http://127.0.0.1:3000/cunzheng`: the print views are the UI's pages, which live under it.
 */
function selfOrigin(app: FastifyInstance): string {
  return `${loopbackOrigin(app.server.address())}${app.basePath ?? ''}`;
}

async function pdfRoutes(app: FastifyInstance, opts: PdfPluginOptions): Promise<void> {
  const config = opts.pdf ?? loadPdfConfig({});
  const { issuer, publicUrl } = opts.site;
  const builtVersion = opts.development
    ? null
    : await certificateTemplateVersion(opts.buildDirectory, opts.site);
  const target = { upstreamUrl: opts.upstreamUrl.replace(/\/+$/, ''), platformCall: opts.platformCall };
  const cms = opts.internalKey ? new PlatformCmsSource(target, opts.internalKey) : null;
  // Notarial certificates are signed by the notary office's own signer (decision 034).
  const officeCms = opts.internalKey
    ? new PlatformCmsSource(target, opts.internalKey, undefined, 'notary')
    : null;
  if (!cms) app.log.warn('no internal key: certificate PDFs are not signed');
  const pool = new BrowserPool({ ...config, logger: app.log });
  const location = () => publicUrl ?? selfOrigin(app);
  const renderer = new CertificateRenderer({
    ...target,
    cacheDir: certificateCacheDir(config.cacheDir, opts.dataDir),
    templateVersion: builtVersion ?? 'dev',
    reuseCache: builtVersion !== null,
    cacheMaxBytes: config.cacheMaxBytes,
    pool,
    gatewayOrigin: () => selfOrigin(app),
    navigationTimeoutMs: config.timeoutMs,
    logger: app.log,
    sign: opts.internalKey ? certificateSigner(target, opts.internalKey, opts.site, location) : undefined,
  });
  app.decorate('certificatePdf', renderer);
  app.decorate(
    'pagePrinter',
    new PagePrinter({
      pool,
      gatewayOrigin: () => selfOrigin(app),
      navigationTimeoutMs: config.timeoutMs,
      sign:
        cms && officeCms
          ? (pdf, reason, signer) =>
              signPdf(pdf, signer === 'notary' ? officeCms : cms, {
                name: signer === 'notary' ? issuer.notaryOffice : issuer.operator,
                reason,
                location: location(),
                contactInfo: issuer.contact ?? '',
              })
          : undefined,
    }),
  );
  // Before the server waits for its connections to end: the browser's own connections to this gateway (it loads the
  // print view from here) would otherwise keep that wait going while the browser is closed only after it.
  app.addHook('preClose', async () => {
    await pool.close();
  });

  const handler = (lang: CertificateLang) =>
    async function certificatePdf(
      request: FastifyRequest<{ Params: { baoquan: string } }>,
      reply: FastifyReply,
    ) {
      const { baoquan } = request.params;
      try {
        const pdf = await renderer.getPdf(baoquan, lang);
        reply
          .header('etag', pdf.etag)
          // The certificate link is a secret: no shared caches; browsers revalidate (a cheap 304) every time.
          .header('cache-control', 'private, no-cache')
          .header('x-pdf-cache', pdf.fromCache ? 'hit' : 'miss');
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch?.split(',').some((t) => t.trim() === pdf.etag)) return reply.code(304).send();
        return (
          reply
            .type('application/pdf')
            .header('content-length', String(pdf.size))
            .header('content-disposition', contentDisposition('inline', `${baoquan}.pdf`, `${baoquan}.pdf`))
            // A PDF rendered for this request or held by the renderer goes out from memory; else from its file.
            .send(pdf.bytes ?? createReadStream(pdf.file))
        );
      } catch (err) {
        return replyRenderError(reply, err);
      }
    };

  // find-my-way ends a parameter at '.', so `:baoquan.pdf` matches `/attestation/BQ….pdf` only; the UI's catch-all
  // still gets every other /attestation/… path.
  app.get('/attestation/:baoquan.pdf', handler('zh'));
  app.get('/English/attestation/:baoquan.pdf', handler('en'));
}

/**
 * Registers the PDF routes and decorates `certificatePdf` on the scope it is registered in (fastify-plugin: the
 * package routes, registered beside it, use the decorator).
 */
export const pdfPlugin = fp(pdfRoutes, { name: 'cunzheng-pdf', fastify: '5.x' });
