/**
 * A labelled text input bound to a Conform field, with its error text and optional hint (the `Field` frame). For
 * forms that validate with Conform; extra input attributes (autoComplete …) pass through. The placeholder defaults
 * to 请输入<label>.
 *
 * The input gets what Conform's `getInputProps(meta, { type })` gives it — id, name, form, type, aria-invalid and
 * aria-describedby (the error's id, `${id}-error`) when the field has errors, defaultValue from the last submission —
 * read as five metadata properties: each property read of a Conform field builds a fresh metadata proxy, and
 * `getInputProps` reads fifteen (the nine constraint attributes among them), 0.04 ms an input on every render
 * (decision 032). No form here passes Conform a `constraint` (they validate with their schema on blur and on the
 * server, and are `noValidate`), so the constraint attributes getInputProps would read are all undefined.
 */
import type { getInputProps } from '@conform-to/react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field } from './field.tsx';

/** What `getInputProps` takes: any field's metadata. */
type ConformField = Parameters<typeof getInputProps>[0];

export function InputField({
  meta,
  label,
  type,
  hint,
  placeholder = `请输入${label}`,
  ...attrs
}: {
  meta: ConformField;
  label: string;
  type: 'text' | 'tel' | 'password' | 'email' | 'number';
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'id' | 'form' | 'defaultValue'>) {
  const id = meta.id;
  const errors = meta.errors;
  const initialValue = meta.initialValue;
  const invalid = errors !== undefined;
  return (
    <Field label={label} id={id} errors={errors} hint={hint}>
      <input
        id={id}
        name={meta.name}
        form={meta.formId}
        type={type}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        defaultValue={typeof initialValue === 'string' ? initialValue : undefined}
        placeholder={placeholder}
        {...attrs}
      />
    </Field>
  );
}
