/**
 * The route guard of spec 02 §2 for /mobile/previewProgress/{fileUrl}: "for paths containing previewProgress, extra
 * slashes inside the file-url are replaced by asterisks". A file-URL token (spec 01 §2.3) whose base64 still holds
 * `/` (a hand-copied or re-encoded link) arrives as several path segments; this resource route catches them and
 * redirects (302, query kept) to the one-segment path with every `/` of the file-url turned into `*`, which the
 * mobile view decodes (file-token.server.ts). Works without JavaScript: a plain HTTP redirect.
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/preview-progress-guard';
import { Msg } from '../../contract/messages.ts';

/** The path prefix the guard applies to. */
export const PREVIEW_PROGRESS_PREFIX = '/mobile/previewProgress/';

/**
 * The guarded path of `pathname` (as the browser sent it, percent-encoded): the file-url after
 * {@link PREVIEW_PROGRESS_PREFIX} with each `/` replaced by `*`. Null when the path is not under the prefix or the
 * file-url holds nothing but slashes.
 */
export function guardPreviewProgressPath(pathname: string): string | null {
  if (!pathname.startsWith(PREVIEW_PROGRESS_PREFIX)) return null;
  const fileUrl = pathname.slice(PREVIEW_PROGRESS_PREFIX.length);
  if (fileUrl.replace(/\//g, '') === '') return null;
  return PREVIEW_PROGRESS_PREFIX + fileUrl.replace(/\//g, '*');
}

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const target = guardPreviewProgressPath(url.pathname);
  if (!target) throw data({ message: Msg.notFoundPage }, { status: 404 });
  return redirect(`${target}${url.search}`);
}
