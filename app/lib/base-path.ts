/**
 * URLs under BASE_PATH (docs/decisions/047-base-path.md). React Router prefixes what it renders itself (`<Link>`,
 * `<Form>`, loader redirects); these helpers prefix the rest: root-relative URLs the app writes into plain `<a>`,
 * `<img>`, `<video>` and `<meta http-equiv=refresh>` (gateway routes such as certificate PDFs, signed file URLs the
 * platform answers as `/api/…` paths), and absolute URLs for QR codes.
 */
import { useHref, type AppLoadContext } from 'react-router';

/**
 * `url` under `basePath` when it is a root-relative path (`/x`; not `//host/x`, `#x`, `?x`, `data:` or
 * `https://…`), else `url` unchanged. `basePath` is '' or `/cunzheng` (no trailing slash).
 */
export function underBasePath(basePath: string, url: string): string {
  return basePath && url.startsWith('/') && !url.startsWith('//') ? basePath + url : url;
}

/** The base path the page is served under ('' at the root), read from React Router's basename. */
export function useBasePath(): string {
  return useHref('/').replace(/\/$/, '');
}

/** A function putting root-relative URLs under the page's base path (see {@link underBasePath}). */
export function useAppUrl(): (url: string) => string {
  const basePath = useBasePath();
  return (url) => underBasePath(basePath, url);
}

/**
 * The absolute URL of `path` on this site as a browser outside reaches it, for QR codes and saved pages: a
 * root-relative `path` is put under the base path and resolved against the request's origin (as the gateway was
 * asked, honouring TRUST_PROXY); an absolute URL stays as it is; '' gives the site's own URL (origin plus base
 * path, no trailing slash).
 */
export function siteUrl(request: Request, context: Pick<AppLoadContext, 'basePath'>, path: string): string {
  const origin = new URL(request.url).origin;
  const basePath = context.basePath ?? '';
  if (path === '') return origin + basePath;
  return new URL(underBasePath(basePath, path), `${origin}/`).toString();
}
