/**
 * A labelled text input bound to a Conform field (`getInputProps`: name, id, constraints, aria-invalid,
 * aria-describedby), with its error text and optional hint (the `Field` frame). For forms that validate with
 * Conform; extra input attributes (autoComplete …) pass through. The placeholder defaults to 请输入<label>.
 */
import { getInputProps } from '@conform-to/react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field } from './field.tsx';

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
  return (
    <Field label={label} id={meta.id} errors={meta.errors} hint={hint}>
      <input {...getInputProps(meta, { type })} placeholder={placeholder} {...attrs} />
    </Field>
  );
}
