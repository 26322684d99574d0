/**
 * Pieces the KYC screens and the operator console share: the status banner (spec 02 §4), an image field with the
 * stored image's thumbnail and a "keep" flag, and read-only rows. Kept free of Conform, which the console does not
 * load; the pieces only the two KYC forms use are in kyc-page-ui.tsx.
 */
import { Fragment, type ReactNode } from 'react';
import { Field } from '../shell/field.tsx';
import { KEEP_SUFFIX, KycText } from './kyc-text.ts';
import { useAppUrl } from '../lib/base-path.ts';

export type BannerTone = 'info' | 'success' | 'error';

/** The status banner of a KYC page; `remark` (checkRemark) is shown after a failure. */
export function StatusBanner({
  tone,
  text,
  remark,
  children,
}: {
  tone: BannerTone;
  text: string;
  remark?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <div className={`kyc-banner kyc-banner-${tone}`} role="status" data-testid="kyc-banner">
      <p className="kyc-banner-title">{text}</p>
      {remark ? (
        <p className="kyc-remark">
          {KycText.failedReason}
          <span data-testid="kyc-remark">{remark}</span>
        </p>
      ) : null}
      {children}
    </div>
  );
}

/** A stored KYC image (signed, expiring, same-origin URL) as a thumbnail that opens the full image. */
export function Thumb({ url, label }: { url: string; label: string }) {
  const appUrl = useAppUrl();
  if (!url) return <span className="muted">未上传</span>;
  return (
    <a href={appUrl(url)} target="_blank" rel="noreferrer" className="kyc-thumb">
      <img src={appUrl(url)} alt={label} />
    </a>
  );
}

/**
 * A file input for a KYC image. With a stored image (`current`) it shows the thumbnail and sends the hidden
 * `<name>__keep` flag, so leaving the input empty keeps the stored image.
 */
export function ImageInput({
  name,
  id,
  label,
  current,
  hint,
  errors,
  accept,
  extra,
}: {
  name: string;
  id: string;
  label: string;
  current?: string | undefined;
  hint: string;
  errors?: string[] | undefined;
  accept: string;
  extra?: ReactNode;
}) {
  const error = errors?.[0];
  return (
    <Field
      label={label}
      id={id}
      errors={errors}
      hint={
        <>
          {current ? '不选择新图片则保留已上传的图片。' : null}
          {hint}
          {extra}
        </>
      }
    >
      <div className="kyc-image-field">
        {current ? (
          <>
            <Thumb url={current} label={label} />
            <input type="hidden" name={`${name}${KEEP_SUFFIX}`} value="1" />
          </>
        ) : null}
        <input
          id={id}
          name={name}
          type="file"
          accept={accept}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
    </Field>
  );
}

/** Read-only label/value rows. */
export function InfoRows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts kyc-facts">
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v === '' || v === null || v === undefined ? <span className="muted">—</span> : v}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
