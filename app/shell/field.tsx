/**
 * A labelled form field with its error text, wired for accessibility (aria-invalid, aria-describedby) so that
 * messages read out and show without JavaScript.
 */
import type { ReactNode } from 'react';

export function Field({
  label,
  id,
  errors,
  children,
  hint,
}: {
  label: string;
  id: string;
  errors?: string[] | undefined;
  children: ReactNode;
  hint?: ReactNode;
}) {
  const error = errors?.[0];
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <div className="field-hint">{hint}</div> : null}
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** Form-level errors (upstream messages), shown above the submit button. */
export function FormErrors({ errors }: { errors?: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <div className="form-error" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** A success/info message. */
export function FormNotice({ text }: { text?: string | null | undefined }) {
  if (!text) return null;
  return (
    <div className="form-notice" role="status">
      {text}
    </div>
  );
}
