/**
 * The operator console's own small frame (the console pages use the bare document: no user top bar, no footer, no
 * script): header with the console name, the queue and audit links, the operator and logout.
 */
import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { CsrfInput } from '../shell/csrf-input.tsx';

export const OPS_STATUS_LABEL: Record<string, string> = {
  '1': '未认证',
  '2': '待审核',
  '3': '已通过',
  '4': '已驳回',
};

export function accountTypeLabel(status: number, authType: number): string {
  if (status === 2) return '企业';
  return authType === 3 ? '个人（刷脸）' : '个人（照片）';
}

export function OpsShell({ name, children }: { name?: string | undefined; children: ReactNode }) {
  return (
    <div className="ops">
      <header className="ops-header">
        <strong className="ops-brand">存证云 · 运营后台</strong>
        {name !== undefined ? (
          <>
            <nav aria-label="运营后台">
              <Link to="/ops">实名审核</Link>
              <Link to="/ops/audit">审计日志</Link>
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
      <main className="ops-main">{children}</main>
    </div>
  );
}
