/**
 * The evidence's title and label fields of the capture forms (/newWeb, /newProcess; decision 037): the title is
 * optional (the platform takes the host of the first URL), the label too.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Field } from '../shell/field.tsx';

export function CaptureEvidenceFields({
  title,
  label,
}: {
  title: FieldMetadata<string>;
  label: FieldMetadata<string>;
}) {
  return (
    <>
      <Field label="证据名称" id={title.id} errors={title.errors} hint="可选，默认为网站域名">
        <input {...getInputProps(title, { type: 'text' })} maxLength={100} />
      </Field>
      <Field label="标签" id={label.id} errors={label.errors}>
        <input {...getInputProps(label, { type: 'text' })} maxLength={30} placeholder="可选" />
      </Field>
    </>
  );
}
