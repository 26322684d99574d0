/**
 * The error summary of a Conform form (decision 030; the GOV.UK pattern): after a submission the server
 * answered with errors — the only way errors arrive without JavaScript — a box at the top of the form lists each
 * invalid field's message as a link to that field (a labelled region, not a second alert: the fields' own
 * messages are the alerts), and takes focus when the page loads (`autofocus` on a `tabindex=-1` box, honoured by
 * browsers in server-rendered HTML), so screen readers announce it and keyboard users start from it; following a
 * link focuses its field (the browser does that for a fragment naming a form control). With JavaScript the summary
 * shows too, but focus stays where Conform puts it (React applies autoFocus to form controls only). Form-level
 * messages stay where FormErrors shows them.
 */
import type { FormMetadata } from '@conform-to/react';

/** Any Conform form's metadata (its fields come from `getFieldset()`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, string[]>;

export function ErrorSummary({ form }: { form: AnyForm }) {
  if (form.status !== 'error') return null;
  // The fieldset is a Proxy (no own keys): the field names come from allErrors ('' holds the form's own errors).
  const fieldset = form.getFieldset() as Record<string, { id: string; errors?: string[] }>;
  const invalid = Object.keys(form.allErrors)
    .filter((name) => name !== '')
    .map((name) => fieldset[name]!)
    .filter((f) => f.errors?.length);
  if (!invalid.length) return null;
  return (
    <section
      className="error-summary"
      aria-labelledby={`${form.id}-error-summary`}
      tabIndex={-1}
      autoFocus
      data-testid="error-summary"
    >
      <h2 id={`${form.id}-error-summary`}>请修改以下 {invalid.length} 处错误</h2>
      <ul>
        {invalid.map((f) => (
          <li key={f.id}>
            <a href={`#${f.id}`}>{f.errors![0]}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
