/**
 * What the gateway (visitors' PDFs, server/pdf/plugin.ts) and the background worker (PDFs rendered ahead,
 * server/worker/renders.ts; decision 064) must do alike for one cache to serve both: the same template version (the
 * UI build's hash salted with what the print view prints) and the same PAdES signature (the operator's signer on the
 * platform, the same reason and name). A PDF the worker rendered is then the file the gateway serves.
 */
import path from 'node:path';
import type { PlatformTarget } from '../../app/lib/platform-call.server.ts';
import type { SiteFacts } from '../../contract/issuer.ts';
import { PlatformCmsSource, signPdf } from './pades.ts';
import { templateVersionOf } from './pdf-cache.ts';
import type { CertificateLang } from './certificate-view.ts';

/**
 * The template version of the build in `buildDirectory` for `site`: PUBLIC_URL (printed in the QR code), the operator
 * and the notary office are printed, so other values make another template.
 * @returns the version (16 hex characters), or null without a build (development: nothing is reused)
 */
export function certificateTemplateVersion(buildDirectory: string, site: SiteFacts): Promise<string | null> {
  const printed = [site.publicUrl ?? '', site.issuer.operator, site.issuer.notaryOffice];
  return templateVersionOf(buildDirectory, printed.join('\0'));
}

/** The PDF cache directory: PDF_CACHE_DIR, else `${dataDir}/cache/pdf`. */
export function certificateCacheDir(cacheDir: string | null, dataDir: string): string {
  return cacheDir ?? path.join(dataDir, 'cache', 'pdf');
}

/**
 * Signs a certificate PDF as the operator (PAdES through the platform's document signer, reached with the internal
 * key): the reason 电子数据保全证书 (English certificates: "Electronic data preservation certificate"), the operator as
 * the name, `location()` (PUBLIC_URL, else the gateway's own URL) and the issuer's contact.
 * @returns the signing function the renderer takes; it throws SigningUnavailableError when the platform does not sign
 */
export function certificateSigner(
  target: PlatformTarget,
  internalKey: string,
  site: SiteFacts,
  location: () => string,
): (pdf: Buffer, lang: CertificateLang) => Promise<Buffer> {
  const cms = new PlatformCmsSource(target, internalKey);
  return (pdf, lang) =>
    signPdf(pdf, cms, {
      name: site.issuer.operator,
      reason: lang === 'en' ? 'Electronic data preservation certificate' : '电子数据保全证书',
      location: location(),
      contactInfo: site.issuer.contact ?? '',
    });
}
