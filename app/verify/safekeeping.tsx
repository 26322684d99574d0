/**
 * /queryAuthentication/safekeeping and /English/safekeeping: look an evidence up by its preservation number
 * (spec 01 §7 bqno → viewToken → bqview). A GET form, so the result has a shareable URL and needs no JavaScript.
 */
import { Form } from 'react-router';
import type { Route } from './+types/safekeeping';
import { lookupByNumber } from './lookup.server.ts';
import { EvidenceResult, NotFound } from './result.tsx';

export const meta: Route.MetaFunction = ({ location }) => [
  {
    title: location.pathname.startsWith('/English')
      ? 'Verify a preservation number'
      : '保全编号查验 - 存证云',
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const english = url.pathname.startsWith('/English');
  const no = (url.searchParams.get('no') ?? '').trim();
  if (!no) return { english, no, result: null };
  return { english, no, result: await lookupByNumber(context, no, url.pathname) };
}

export default function Safekeeping({ loaderData }: Route.ComponentProps) {
  const { english, no, result } = loaderData;
  const form = (
    <Form method="get" className="inline-form verify-form">
      <label htmlFor="no">{english ? 'Preservation No.' : '保全编号'}</label>
      <input
        id="no"
        name="no"
        type="text"
        defaultValue={no}
        maxLength={64}
        placeholder={english ? 'e.g. BQ20261123…' : '如 BQ20261123…'}
      />
      <button type="submit" className="button primary">
        {english ? 'Verify' : '查验'}
      </button>
    </Form>
  );
  const body = (
    <>
      {form}
      {result ? (
        result.ok ? (
          <EvidenceResult evidence={result.value} english={english} />
        ) : (
          <NotFound text={result.error} />
        )
      ) : null}
    </>
  );
  return english ? (
    <section className="page" lang="en">
      <h1>Verify a preservation number</h1>
      {body}
    </section>
  ) : (
    body
  );
}
