/**
 * InputField reads five metadata properties instead of calling Conform's getInputProps (decision 032): its input must
 * still carry exactly what getInputProps gives one — fresh, after a submission with errors, with a submitted value.
 */
import { getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InputField } from './input-field.tsx';

/** The `<input …>` of each rendering: with InputField, and with getInputProps on the same field. */
function inputs(lastResult: SubmissionResult<string[]> | undefined, type: 'text' | 'tel' | 'password') {
  function Form() {
    const [, fields] = useForm<{ mobile: string }>({ id: 'f', lastResult });
    return (
      <>
        <InputField meta={fields.mobile} label="手机号" type={type} placeholder="p" autoComplete="username" />
        <input {...getInputProps(fields.mobile, { type })} placeholder="p" autoComplete="username" />
      </>
    );
  }
  const html = renderToStaticMarkup(<Form />);
  const found = html.match(/<input[^>]*>/g) ?? [];
  expect(found).toHaveLength(2);
  const attributes = (tag: string) =>
    [...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`).sort();
  return { ours: attributes(found[0]!), conform: attributes(found[1]!), html };
}

describe('InputField', () => {
  it('gives a fresh field the attributes getInputProps gives it', () => {
    const { ours, conform } = inputs(undefined, 'tel');
    expect(ours).toEqual(conform);
    expect(ours).toContain('name=mobile');
    expect(ours).toContain('id=f-mobile');
  });

  it('marks a field with errors invalid and points at its error text, keeping the submitted value', () => {
    const result: SubmissionResult<string[]> = {
      status: 'error',
      initialValue: { mobile: '123' },
      error: { mobile: ['手机号格式错误'] },
    };
    const { ours, conform, html } = inputs(result, 'text');
    expect(ours).toEqual(conform);
    expect(ours).toEqual(
      expect.arrayContaining(['aria-invalid=true', 'aria-describedby=f-mobile-error', 'value=123']),
    );
    expect(html).toContain('id="f-mobile-error"');
    expect(html).toContain('手机号格式错误');
  });

  it('keeps a value without errors and passes the type on', () => {
    const result: SubmissionResult<string[]> = { status: 'error', initialValue: { mobile: 'x' }, error: {} };
    const { ours, conform } = inputs(result, 'password');
    expect(ours).toEqual(conform);
    expect(ours).toContain('type=password');
    expect(ours).not.toContain('aria-invalid=true');
  });
});
