/**
 * /newAccessCard: preserve one file with a title and a label (spec 01 §2.2). The multipart body is forwarded to the
 * platform as a stream, never parsed or buffered here, so a 2 GiB file costs no memory on the gateway; the
 * platform hashes it while storing it. Success lands on the new certificate (Post/Redirect/Get).
 * CSRF: the token rides in the action URL, because reading a form field would mean parsing the stream.
 */
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/new-file';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidencePaths, type LabelItem } from '../../contract/evidence.ts';
import { formatBytes } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { useCsrfToken } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { kycGateHref } from '../kyc/gate.server.ts';
import { forwardUpload } from './forward-upload.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';

export const meta: Route.MetaFunction = () => [{ title: '文件保全 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [labels, gate] = await Promise.all([
    authedCall<LabelItem[]>(request, context, EvidencePaths.labels),
    kycGateHref(request, context),
  ]);
  return {
    labels: isSuccess(labels.code) ? labels.data.map((l) => l.label) : [],
    maxBytes: context.maxUploadBytes,
    gate,
  };
}

export const action = ({ request, context }: Route.ActionArgs) =>
  forwardUpload(request, context, EvidencePaths.save);

export default function NewFileEvidence({ loaderData, actionData }: Route.ComponentProps) {
  const { labels, maxBytes, gate } = loaderData;
  const gated = !!actionData && 'gated' in actionData;
  const busy = useNavigation().state === 'submitting';
  const csrf = useCsrfToken();
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/attestation-list/file">数据保全</Link> / 文件保全
      </p>
      <h1>文件保全</h1>
      <p className="lead">
        上传的文件将计算 SHA-256 哈希并记录到存证账本，生成电子数据保全证书。单个文件不超过{' '}
        {formatBytes(maxBytes)}。
      </p>
      {gate || gated ? (
        <KycGateNotice href={gate ?? '/no-type'} message={gated ? actionData?.error : undefined} />
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        action={`/newAccessCard?csrf=${encodeURIComponent(csrf)}`}
        className="card"
        noValidate
      >
        <Field label="证据名称" id="title">
          <input id="title" name="title" type="text" maxLength={100} placeholder="默认使用文件名" />
        </Field>
        <Field label="标签" id="label">
          <input
            id="label"
            name="label"
            type="text"
            maxLength={30}
            list="label-options"
            placeholder="可选，用于分类筛选"
          />
          <datalist id="label-options">
            {labels.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </Field>
        <Field label="选择文件" id="file">
          <input id="file" name="file" type="file" required />
        </Field>
        <FormErrors errors={actionData?.error && !gated ? [actionData.error] : undefined} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? '正在上传并保全…' : '提交保全'}
        </button>
      </Form>
    </section>
  );
}
