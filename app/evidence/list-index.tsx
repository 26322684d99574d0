/** /attestation-list redirects to its first tab, /attestation-list/file (spec 01 §2.2). */
import { redirect } from 'react-router';
import type { Route } from './+types/list-index';
import { requireToken } from '../lib/auth.server.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireToken(request, context);
  return redirect('/attestation-list/file');
}
