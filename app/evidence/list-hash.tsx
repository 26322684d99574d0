/** /attestation-list/hash: the user's hash evidence (spec 01 §2.2, §2.4). */
import type { ComponentType } from 'react';
import type { Route } from './+types/list-hash';
import { listAction, listLoader } from './list.server.ts';
import { EvidenceListPage } from './list-page.tsx';

export const meta: Route.MetaFunction = () => [{ title: '哈希保全 - 存证云' }];
export const loader = ({ request, context }: Route.LoaderArgs) => listLoader(request, context, 'hash');
export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

export default EvidenceListPage satisfies ComponentType<Route.ComponentProps>;
