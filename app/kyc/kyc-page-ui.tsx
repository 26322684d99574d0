/**
 * Pieces of the two KYC form pages (/personage-kyc, /person-info, /organization-kyc, /kyc-info): the page head with
 * the status banner (spec 02 §4), the form frame, the submit button, and text and radio inputs of Conform forms.
 * Apart from kyc-ui.tsx so that the operator console, which shows KYC images and rows, does not load Conform.
 */
import { getFormProps, getInputProps, type FieldMetadata, type FormMetadata } from '@conform-to/react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Form, Link, useLocation, useNavigation } from 'react-router';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormNotice } from '../shell/field.tsx';
import { KycText } from './kyc-text.ts';
import { StatusBanner } from './kyc-ui.tsx';

/** The banner texts of one KYC page by userStatus (spec 02 §4): 2 under review, 3 verified, 4 failed. */
export interface StatusTexts {
  reviewing: string;
  verified: string;
  failed: string;
}

/** A KYC page's titles: on its form path, and on the info path that shows the same page (spec 02 §2). */
export interface KycTitles {
  form: string;
  info: string;
  /** The info page's path, e.g. `/person-info`. */
  infoPath: string;
}

/** The page's title for a path: the info title on the info path, else the form's. */
export function kycTitle(titles: KycTitles, pathname: string): string {
  return pathname === titles.infoPath ? titles.info : titles.form;
}

/**
 * The head of a KYC page: the breadcrumb back to the evidence list (on the form's path only), the title, the notice
 * after a submission, and the status banner of userStatus 2, 3 or 4 (with the operator's remark after a failure);
 * none at 1.
 */
export function KycPageHead({
  titles,
  page,
  texts,
}: {
  titles: KycTitles;
  page: { userStatus: string; checkRemark?: string | undefined; notice: string | null };
  texts: StatusTexts;
}) {
  const { pathname } = useLocation();
  return (
    <>
      {pathname === titles.infoPath ? null : (
        <p className="breadcrumb">
          <Link to="/attestation-list">返回</Link>
          {` / ${titles.form}`}
        </p>
      )}
      <h1>{kycTitle(titles, pathname)}</h1>
      <FormNotice text={page.notice} />
      {page.userStatus === '2' ? (
        <StatusBanner tone="info" text={texts.reviewing}>
          <p>{KycText.reviewHint}</p>
        </StatusBanner>
      ) : null}
      {page.userStatus === '3' ? <StatusBanner tone="success" text={texts.verified} /> : null}
      {page.userStatus === '4' ? (
        <StatusBanner tone="error" text={texts.failed} remark={page.checkRemark} />
      ) : null}
    </>
  );
}

/**
 * The frame of a KYC form: a POST form wired to Conform (`form`), with the CSRF field; `multipart` for the forms
 * that carry images. Browser validation is off (noValidate): Conform shows the spec's messages instead.
 */
export function KycForm<Schema extends Record<string, unknown>>({
  form,
  multipart = false,
  onFocus,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  multipart?: boolean;
  /** The form's first focus loads its validation (shell/lazy-validation.ts). */
  onFocus: () => void;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      encType={multipart ? 'multipart/form-data' : undefined}
      {...getFormProps(form)}
      onFocus={onFocus}
      className="card kyc-form"
      noValidate
    >
      <CsrfInput />
      <ErrorSummary form={form} />
      {children}
    </Form>
  );
}

/** The submit button of a KYC form: disabled, with `busyLabel`, while the form is being submitted. */
export function SubmitButton({ label, busyLabel }: { label: string; busyLabel: string }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <button type="submit" className="button primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** A text input of a Conform form in its labelled Field; the other props (maxLength, autoComplete) go to the input. */
export function TextInput({
  label,
  field,
  type = 'text',
  ...input
}: {
  label: string;
  field: FieldMetadata<unknown>;
  type?: 'text' | 'tel' | 'date';
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <Field label={label} id={field.id} errors={field.errors}>
      <input {...getInputProps(field, { type })} {...input} />
    </Field>
  );
}

/** A radio group of a Conform form; each option's input gets the id `<field id>-<idSuffix>`. */
export function RadioField({
  legend,
  field,
  options,
}: {
  legend: string;
  field: FieldMetadata<unknown>;
  options: { value: string; label: string; idSuffix: string }[];
}) {
  return (
    <fieldset className={field.errors ? 'field field-invalid' : 'field'}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label className="radio" key={o.value}>
          <input
            {...getInputProps(field, { type: 'radio', value: o.value })}
            id={`${field.id}-${o.idSuffix}`}
          />
          {` ${o.label}`}
        </label>
      ))}
      {field.errors ? (
        <div className="field-error" role="alert">
          {field.errors[0]}
        </div>
      ) : null}
    </fieldset>
  );
}
