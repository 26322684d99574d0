/**
 * The operator console's own small frame (the console pages use the bare document: no user top bar, no footer, no
 * script): header with the console name, the links of the home, the queues the operator may see, the audit log
 * (and, for admins, the ledger's witnesses), the operator and logout.
 */
import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { CsrfInput } from '../shell/csrf-input.tsx';
import type { OpsQueueEntry } from './queues.ts';

export function OpsShell({
  name,
  queues = [],
  admin = false,
  children,
}: {
  name?: string | undefined;
  queues?: readonly OpsQueueEntry[];
  /** Whether the operator is an admin (the ledger's witnesses page). */
  admin?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="ops">
      <header className="ops-header">
        <strong className="ops-brand">存证云 · 运营后台</strong>
        {name !== undefined ? (
          <>
            <nav aria-label="运营后台">
              <Link to="/ops">工作台</Link>
              {queues.map((q) => (
                <Link key={q.area} to={q.path}>
                  {q.title}
                </Link>
              ))}
              <Link to="/ops/audit">审计日志</Link>
              {admin ? <Link to="/ops/ledger">账本见证</Link> : null}
              {admin ? <Link to="/ops/jobs">后台任务</Link> : null}
            </nav>
            <span className="ops-user">
              {name ? <span>操作员：{name}</span> : null}
              <Form method="post" action="/ops/logout">
                <CsrfInput />
                <button type="submit" className="link-button">
                  退出
                </button>
              </Form>
            </span>
          </>
        ) : null}
      </header>
      <div className="ops-main">{children}</div>
    </div>
  );
}
