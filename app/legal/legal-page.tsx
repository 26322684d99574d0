/**
 * /user-agreement, /privacy and /clause (spec 01 §2 routes; content ours, app/legal/legal-texts.ts): a plain
 * server-rendered document with its version and effective date, and the support contact (SUPPORT_CONTACT) when
 * configured. Works the same with and without JavaScript.
 */
import { Link } from 'react-router';
import type { Route } from './+types/legal-page';
import { legalDocument } from './legal-texts.ts';
import { LegalPaths, type LegalKind } from './paths.ts';

const KIND_OF_PATH = Object.fromEntries(
  Object.entries(LegalPaths).map(([kind, path]) => [path, kind as LegalKind]),
) as Record<string, LegalKind>;

export function loader({ request, context }: Route.LoaderArgs) {
  const kind = KIND_OF_PATH[new URL(request.url).pathname] ?? 'userAgreement';
  return {
    kind,
    doc: legalDocument(kind, context.site.issuer.notaryOffice),
    contact: context.site.issuer.contact,
  };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.doc.title ?? '用户协议'} - 存证云` },
];

const TITLES: Record<LegalKind, string> = {
  userAgreement: '用户协议',
  privacy: '隐私政策',
  clause: '服务规则',
};

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const { kind, doc, contact } = loaderData;
  return (
    <article className="page narrow legal">
      <nav className="tabs" aria-label="平台规则">
        {(Object.keys(LegalPaths) as LegalKind[]).map((k) => (
          <Link key={k} to={LegalPaths[k]} aria-current={k === kind ? 'page' : undefined}>
            {TITLES[k]}
          </Link>
        ))}
      </nav>
      <h1>{doc.title}</h1>
      <p className="muted">
        版本 {doc.version} · 生效日期 <time dateTime={doc.effective}>{doc.effective}</time>
      </p>
      <p>{doc.intro}</p>
      {doc.sections.map((s) => (
        <section key={s.heading}>
          <h2>{s.heading}</h2>
          {s.paragraphs?.map((p) => (
            <p key={p}>{p}</p>
          ))}
          {s.items ? (
            <ul>
              {s.items.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
      {contact ? (
        <section>
          <h2>联系我们</h2>
          <p data-testid="support-contact">{contact}</p>
        </section>
      ) : null}
    </article>
  );
}
