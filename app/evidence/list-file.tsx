/** /attestation-list/file: the user's file evidence (spec 01 §2.4). */
import type { ComponentType } from 'react';
import type { Route } from './+types/list-file';
import { listAction, listLoader } from './list.server.ts';
import { EvidenceListPage } from './list-page.tsx';

export const meta: Route.MetaFunction = () => [{ title: '文件保全 - 存证云' }];
export const loader = ({ request, context }: Route.LoaderArgs) => listLoader(request, context, 'file');
export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

export default EvidenceListPage satisfies ComponentType<Route.ComponentProps>;
