/**
 * Client-side validation that loads when the user first reaches the form, so that no page's first load carries the
 * contract's zod schemas (the first-load budget, JS ≤ 100 KB brotli; docs/decisions/031).
 *
 * `useLazyValidation(load)` returns Conform's `onValidate` and an `onFocus` for the `<Form>`: the first focus inside
 * the form (focus events bubble as `focusin`) imports the validator module; from then on `onValidate` validates in
 * the browser with the same contract schema the action uses. Until it has loaded (the user tabbed straight to the
 * submit button on a slow line, or the import failed): a submit is answered "not decided here" (`error: null`) and
 * Conform lets it go to the action, which validates it and answers with the same messages (the no-JavaScript path,
 * through the router); a field's blur or input validation reports nothing yet (Conform would otherwise ask the server
 * to validate the field, a request per blur).
 */
import { parse, type Submission } from '@conform-to/react';
import { useCallback, useRef, useState } from 'react';

/** A validator: Conform's submission for the form's data (what `parseWithZod` returns). */
export type Validator<Output> = (formData: FormData) => Submission<Output, string[]>;

/**
 * @param load imports the validator (a dynamic `import()` of a module that pulls in the schema); called once
 * @returns `onValidate` for `useForm` and `onFocus` for the form element
 */
export function useLazyValidation<Output>(load: () => Promise<Validator<Output>>): {
  onValidate: (context: { formData: FormData }) => Submission<Output, string[]>;
  onFocus: () => void;
} {
  const [validator, setValidator] = useState<Validator<Output> | null>(null);
  const started = useRef(false);
  const loader = useRef(load);
  loader.current = load;
  const onFocus = useCallback(() => {
    if (started.current) return;
    started.current = true;
    loader.current().then(
      (v) => setValidator(() => v),
      () => {
        started.current = false; // a failed import is tried again on the next focus
      },
    );
  }, []);
  const onValidate = ({ formData }: { formData: FormData }) =>
    validator
      ? validator(formData)
      : parse<Output, string[]>(formData, { resolve: (_, intent) => ({ error: intent ? {} : null }) });
  return { onValidate, onFocus };
}
