/**
 * /queryAuthentication/safekeeping and /English/safekeeping: look an evidence up by its preservation number
 * (spec 01 §7 bqno → viewToken → bqview). A GET form, so the result has a shareable URL and needs no JavaScript.
 * The English route is served as `<html lang="en">` (the loader's `lang`) with English labels and messages.
 */
import { Form } from 'react-router';
import type { Route } from './+types/safekeeping';
import { Msg } from '../../contract/messages.ts';
import { VerifyMsg } from '../../contract/verify.ts';
import { lookupByNumber } from './lookup.server.ts';
import { EvidenceResult, NotFound } from './result.tsx';

export const meta: Route.MetaFunction = ({ location }) => [
  {
    title: location.pathname.startsWith('/English')
      ? 'Verify a preservation number'
      : '保全编号查验 - 存证云',
  },
];

/** The platform's Chinese lookup messages in English; any other failure reads as a generic one. */
function englishError(message: string): string {
  if (message === VerifyMsg.evidenceNumberNotFound)
    return 'No evidence was found for this preservation number.';
  if (message === Msg.tooManyRequests) return 'Too many lookups. Please try again in a minute.';
  return 'The lookup failed. Please try again later.';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const english = url.pathname.startsWith('/English');
  const lang = english ? ('en' as const) : ('zh-CN' as const);
  const no = (url.searchParams.get('no') ?? '').trim();
  if (!no) return { english, lang, no, result: null };
  const result = await lookupByNumber(context, no, url.pathname);
  return {
    english,
    lang,
    no,
    result: english && !result.ok ? { ok: false as const, error: englishError(result.error) } : result,
  };
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
    <section className="page">
      <h1>Verify a preservation number</h1>
      {body}
    </section>
  ) : (
    body
  );
}
