/**
 * /ops and every console page under it (docs/decisions/015-operator-console-roles.md): the console frame for the
 * logged-in operator, with the links of the queues their roles open (from the platform's `/api/ops/me` and the
 * registry app/ops/queues.ts). A page the operator's roles do not open shows 无权访问 (HTTP 403) in the frame.
 */
import { isRouteErrorResponse, Outlet } from 'react-router';
import type { Route } from './+types/console';
import { Msg } from '../../contract/messages.ts';
import { type OpsOperator, OpsPaths } from '../../contract/ops.ts';
import { opsData } from './ops.server.ts';
import { OpsShell } from './ops-ui.tsx';
import { queuesFor } from './queues.ts';

export const handle = { bare: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  return opsData<OpsOperator>(request, context, OpsPaths.me, { method: 'GET' });
}

export default function OpsConsole({ loaderData: operator }: Route.ComponentProps) {
  return (
    <OpsShell
      name={operator.username}
      queues={queuesFor(operator.roles)}
      admin={operator.roles.includes('admin')}
    >
      <Outlet />
    </OpsShell>
  );
}

/** 无权访问 (403), a missing submission (404) or a platform failure, inside the console frame. */
export function ErrorBoundary({ error, loaderData: operator }: Route.ErrorBoundaryProps) {
  let message: string = Msg.serverError;
  if (isRouteErrorResponse(error)) {
    const body = error.data as { message?: string } | undefined;
    message = body?.message || (error.status === 404 ? Msg.notFoundPage : message);
  }
  return (
    <OpsShell
      name={operator?.username}
      queues={operator ? queuesFor(operator.roles) : []}
      admin={operator?.roles.includes('admin') ?? false}
    >
      <section className="error-page">
        <h1>{message}</h1>
      </section>
    </OpsShell>
  );
}
