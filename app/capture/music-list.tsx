/**
 * /evidences-all/music: the user's music works (decision 039; spec 01 §2 routes) — the evidence list screen of
 * 数据保全 (filters, labels, deletion, certificates) under the 在线取证 tabs; new works at /evidences-all/music/new.
 */
import type { ComponentType } from 'react';
import type { Route } from './+types/music-list';
import { listAction, listLoader } from '../evidence/list.server.ts';
import { EvidenceListPage } from '../evidence/list-page.tsx';

export const meta: Route.MetaFunction = () => [{ title: '音乐作品保全 - 存证云' }];
export const loader = ({ request, context }: Route.LoaderArgs) => listLoader(request, context, 'music');
export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

export default EvidenceListPage satisfies ComponentType<Route.ComponentProps>;
