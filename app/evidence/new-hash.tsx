/**
 * /newAccessHashCard: hash evidence (spec 01 §2.2). The file never leaves the user's machine: with JavaScript the
 * page reads the chosen file in 4 MiB slices and computes SHA-256 incrementally (a 2 GiB file in constant memory);
 * without JavaScript the user pastes the SHA-256 hex. Web Crypto's `digest` is one-shot (it needs the whole file in
 * memory), so the incremental hash is @noble/hashes (audited, pure JS, CSP-friendly); docs/decisions/008.
 */
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/new-hash';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData, SaveHashBody } from '../../contract/evidence.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { isKycRefusal, kycGateHref } from '../kyc/gate.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';
import { readForm } from '../lib/form-body.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '哈希保全 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { gate: await kycGateHref(request, context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const submission = parseWithZod(formData, { schema: SaveHashBody });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const res = await authedCall<SaveEvidenceData>(request, context, EvidencePaths.saveHash, {
    body: {
      hash: submission.value.hash,
      title: submission.value.title,
      label: submission.value.label,
      fileName: submission.value.fileName,
      fileSize: submission.value.fileSize,
    },
  });
  if (isKycRefusal(res)) return data({ result: submission.reply(), gated: res.msg }, { status: 412 });
  if (!isSuccess(res.code))
    return data({ result: submission.reply({ formErrors: [res.msg] }) }, { status: 400 });
  return redirect(`/attestation/${encodeURIComponent(res.data.baoquan)}`);
}

const SLICE = 4 * 1024 * 1024;

/** Hashes a File slice by slice; `onProgress` gets the fraction done. */
async function hashFile(file: File, onProgress: (done: number) => void): Promise<string> {
  // loaded when a file is picked, not with the page
  const [{ sha256 }, { bytesToHex }] = await Promise.all([
    import('@noble/hashes/sha2.js'),
    import('@noble/hashes/utils.js'),
  ]);
  const h = sha256.create();
  for (let offset = 0; offset < file.size; offset += SLICE) {
    const chunk = new Uint8Array(await file.slice(offset, offset + SLICE).arrayBuffer());
    h.update(chunk);
    onProgress(Math.min(1, (offset + chunk.length) / file.size));
  }
  if (file.size === 0) onProgress(1);
  return bytesToHex(h.digest());
}

export default function NewHashEvidence({ loaderData, actionData }: Route.ComponentProps) {
  const { gate } = loaderData;
  const gated = actionData && 'gated' in actionData ? String(actionData.gated) : null;
  const validation = useLazyValidation(() => import('./hash-validation.ts').then((m) => m.validateHash));
  const [form, fields] = useForm({
    id: 'hash-form',
    lastResult: actionData?.result,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const hydrated = useHydrated();
  const [progress, setProgress] = useState<number | null>(null);
  const [computed, setComputed] = useState<{ hash: string; name: string; size: number } | null>(null);

  async function onPick(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setComputed(null);
    setProgress(0);
    const hash = await hashFile(file, setProgress);
    setComputed({ hash, name: file.name, size: file.size });
    const hashInput = document.getElementById(fields.hash.id) as HTMLInputElement | null;
    if (hashInput) hashInput.value = hash;
    const titleInput = document.getElementById(fields.title.id) as HTMLInputElement | null;
    if (titleInput && !titleInput.value) titleInput.value = file.name.slice(0, 100);
  }

  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/attestation-list/hash">数据保全</Link> / 哈希保全
      </p>
      <h1>哈希保全</h1>
      <p className="lead">
        只保全文件的 SHA-256
        哈希值，原始文件不离开您的电脑。日后出示原文件时，任何人都可重新计算哈希值与证书比对。
      </p>
      {gate || gated ? <KycGateNotice href={gate ?? '/no-type'} message={gated ?? undefined} /> : null}
      <Form method="post" {...getFormProps(form)} onFocus={validation.onFocus} className="card" noValidate>
        <CsrfInput />
        <ErrorSummary form={form} />
        {hydrated ? (
          <div className="field">
            <label htmlFor="local-file">选择本地文件（在浏览器内计算，不上传）</label>
            <input id="local-file" type="file" onChange={onPick} />
            {progress !== null && !computed ? (
              <progress value={progress} max={1} aria-label="计算进度">
                {Math.round(progress * 100)}%
              </progress>
            ) : null}
            {computed ? (
              <p className="muted" role="status">
                已计算：{computed.name}（{computed.size.toLocaleString('zh-CN')} 字节）
              </p>
            ) : null}
          </div>
        ) : null}
        <input type="hidden" name="fileName" value={computed?.name ?? ''} />
        <input type="hidden" name="fileSize" value={computed?.size ?? ''} />
        <Field
          label="文件SHA-256哈希值"
          id={fields.hash.id}
          errors={fields.hash.errors}
          hint="64位十六进制字符；未启用脚本时，请用本机工具计算后粘贴（如 sha256sum 或 certutil -hashfile 文件 SHA256）"
        >
          <input
            {...getInputProps(fields.hash, { type: 'text' })}
            className="mono"
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="证据名称" id={fields.title.id} errors={fields.title.errors}>
          <input {...getInputProps(fields.title, { type: 'text' })} maxLength={100} />
        </Field>
        <Field label="标签" id={fields.label.id} errors={fields.label.errors}>
          <input {...getInputProps(fields.label, { type: 'text' })} maxLength={30} placeholder="可选" />
        </Field>
        <FormErrors errors={form.errors} />
        <button type="submit" className="button primary" disabled={progress !== null && !computed}>
          提交保全
        </button>
      </Form>
    </section>
  );
}
