/**
 * A confirmation step that works without JavaScript (decision 004): a `<details>` whose summary names the action and
 * whose body is a small POST form with the question and the confirming button. Opening the summary is the first
 * click, the button the second; the action answers with a redirect (Post/Redirect/Get).
 *
 * Browsers without `<details>` (NoDetailsContext, from the User-Agent) would show question and button at once; they get
 * a link to the box instead, which CSS shows only while it is the URL's `:target` (IE 9+, old Android browsers).
 */
import { useContext, type ReactNode } from 'react';
import { Form } from 'react-router';
import { CsrfInput } from './csrf-input.tsx';
import { NoDetailsContext } from './engine.ts';

/**
 * @param summary the action's link text (e.g. 删除)
 * @param question what is asked (e.g. 确认删除该地址？)
 * @param confirm the confirming button's text (e.g. 确认删除)
 * @param intent the button's `intent` value
 * @param fields hidden fields posted with it (e.g. `{id: 3}`)
 * @param tone `danger` for destructive actions, `primary` for the main one
 */
export function ConfirmAction({
  summary,
  question,
  confirm,
  intent,
  fields = {},
  tone,
  className,
  summaryClassName,
}: {
  summary: ReactNode;
  question: ReactNode;
  confirm: string;
  intent: string;
  fields?: Record<string, string | number>;
  tone?: 'danger' | 'primary';
  className?: string;
  summaryClassName?: string;
}) {
  const noDetails = useContext(NoDetailsContext);
  const box = (id?: string) => (
    <Form method="post" className={id ? 'confirm-box confirm-target' : 'confirm-box'} id={id}>
      <CsrfInput />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p>{question}</p>
      <button
        type="submit"
        name="intent"
        value={intent}
        className={
          tone === 'primary'
            ? 'button primary small'
            : tone === 'danger'
              ? 'button small danger'
              : 'button small'
        }
      >
        {confirm}
      </button>
    </Form>
  );
  if (noDetails) {
    const id = `confirm-${intent}-${Object.values(fields).join('-')}`.replace(/[^A-Za-z0-9_-]/g, '_');
    return (
      <div className={className}>
        <a href={`#${id}`} className={summaryClassName}>
          {summary}
        </a>
        {box(id)}
      </div>
    );
  }
  return (
    <details className={className}>
      <summary className={summaryClassName}>{summary}</summary>
      {box()}
    </details>
  );
}
