/** /queryAuthentication: the public verification centre; children per spec 01 §2.1, tabs as plain links. */
import { NavLink, Outlet } from 'react-router';
import type { Route } from './+types/layout';

export const meta: Route.MetaFunction = () => [{ title: '证据核验 - 存证云' }];

const TABS = [
  { to: 'safekeeping', label: '保全编号查验' },
  { to: 'certificate', label: '文件核验' },
  { to: 'keepSingle', label: '保全单核对' },
  { to: 'electronicData', label: '账本记录查验' },
  { to: 'mutualEvidence', label: '账本一致性' },
  { to: 'notarial', label: '公证书核验' },
];

export default function VerifyLayout() {
  return (
    <section className="page">
      <h1>证据核验</h1>
      <nav className="tabs" aria-label="核验方式">
        {TABS.map((t) => (
          <NavLink key={t.to} to={t.to}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
