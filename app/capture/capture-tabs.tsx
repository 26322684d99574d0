/**
 * The online-capture area's tabs (在线取证, decision 039): web captures, process captures and app evidence (uploads of
 * the open API's apps) and music works, each a plain link; the current one is marked for assistive technology.
 */
import { Link } from 'react-router';

/** Which tab is current. */
export type CaptureTab = 'web' | 'process' | 'mobile' | 'music';

const TABS: { tab: CaptureTab; to: string; label: string }[] = [
  { tab: 'web', to: '/evidences-all/web', label: '网页取证' },
  { tab: 'process', to: '/evidences-all/process', label: '过程取证' },
  { tab: 'mobile', to: '/evidences-all/mobile-process', label: 'App 取证' },
  { tab: 'music', to: '/evidences-all/music', label: '音乐作品' },
];

/** The tab bar with `current` marked. */
export function CaptureTabs({ current }: { current: CaptureTab }) {
  return (
    <nav className="tabs" aria-label="在线取证">
      {TABS.map((t) => (
        <Link key={t.tab} to={t.to} aria-current={t.tab === current ? 'page' : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
