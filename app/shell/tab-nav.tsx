/**
 * Tabs as plain links (work without JavaScript): one `<nav class="tabs">` whose current tab carries
 * `aria-current="page"`. Used by the lists that split by kind or state (orders, invoices, the console's queues).
 */
import { Link } from 'react-router';

/** One tab: where it leads, its label and whether it is the page shown. */
export interface Tab {
  href: string;
  label: string;
  current: boolean;
}

export function TabNav({ label, tabs }: { label: string; tabs: readonly Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link key={t.href} to={t.href} aria-current={t.current ? 'page' : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
