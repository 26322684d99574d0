/**
 * /evidences-all/mobile-process: the app evidence the open API's apps preserved for the user (decision 039) — the
 * evidence list screen of 数据保全 (filters, labels, deletion, certificates) under the 在线取证 tabs.
 */
import type { ComponentType } from 'react';
import type { Route } from './+types/mobile-list';
import { listAction, listLoader } from '../evidence/list.server.ts';
import { EvidenceListPage } from '../evidence/list-page.tsx';

export const meta: Route.MetaFunction = () => [{ title: 'App 取证 - 存证云' }];
export const loader = ({ request, context }: Route.LoaderArgs) => listLoader(request, context, 'app');
export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

export default EvidenceListPage satisfies ComponentType<Route.ComponentProps>;
