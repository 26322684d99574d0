/** /attestation-list/property: the user's user-data evidence (spec 01 §2.2, §2.4). */
import type { ComponentType } from 'react';
import type { Route } from './+types/list-property';
import { listAction, listLoader } from './list.server.ts';
import { EvidenceListPage } from './list-page.tsx';

export const meta: Route.MetaFunction = () => [{ title: '用户数据保全 - 存证云' }];
export const loader = ({ request, context }: Route.LoaderArgs) => listLoader(request, context, 'property');
export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

export default EvidenceListPage satisfies ComponentType<Route.ComponentProps>;
