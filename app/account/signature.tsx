/**
 * /signature (spec 01 §2.7, §4, §5): the user's seals with name, image, creation time and a default badge; set
 * default and delete each after a confirmation step (<details>, no JavaScript needed); the upload form (name, default
 * flag, PNG image ≤ 10 MB) streams to the platform, which checks the PNG by its bytes. Messages are the spec's:
 * 签章名称不能为空, 上传签章图片只能是 png 格式!, 上传签章图片大小不能超过 10MB!, 请上传签章图片.
 */
import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/signature';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import {
  type Signature,
  SIGNATURE_MAX_BYTES,
  SignatureMsg,
  SignaturePaths,
} from '../../contract/signature.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf, validateCsrfInUrl } from '../lib/csrf.server.ts';
import { useCsrfToken } from '../shell/csrf-input.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import { readForm } from '../lib/form-body.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '签章管理 - 存证云' }];

const DONE: Record<string, string> = { added: Msg.added, default: '已设为默认签章', deleted: '已删除该签章' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const res = await authedCall<Signature[]>(request, context, SignaturePaths.signatureListing, {
    method: 'POST',
  });
  return {
    list: isSuccess(res.code) ? res.data : [],
    error: isSuccess(res.code) ? null : res.msg,
    notice: DONE[new URL(request.url).searchParams.get('done') ?? ''] ?? null,
  };
}

/**
 * The row buttons' `intent` values (the ConfirmAction forms below), each with its platform call and the `done` notice
 * it redirects to; any other value (missing, unknown) acts on nothing.
 */
function rowIntent(intent: FormDataEntryValue | null): { path: string; done: string } | null {
  if (intent === 'setDefault') return { path: SignaturePaths.signatureSetDefault, done: 'default' };
  if (intent === 'del') return { path: SignaturePaths.signatureDel, done: 'deleted' };
  return null;
}

/** Multipart framing allowance over the image limit when checking Content-Length early (bytes). */
const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * Spec 01 §2.7: a multipart body (CSRF in `?csrf=`) uploads a seal; a form body acts on one seal `id` by its button's
 * `intent` — `setDefault` or `del` — and redirects back (PRG) with `?done=`. Answers 400 `{error}` with the
 * platform's message, with {@link Msg.badRequest} for a missing or unknown intent (nothing is called), 413 for an
 * image over 10 MB; 403 from the CSRF check.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    await validateCsrfInUrl(request, context);
    if (Number(request.headers.get('Content-Length') ?? 0) > SIGNATURE_MAX_BYTES + MULTIPART_OVERHEAD) {
      return data({ error: SignatureMsg.tooLarge }, { status: 413 });
    }
    if (!request.body) return data({ error: SignatureMsg.imageRequired }, { status: 400 });
    const res = await authedCall(request, context, SignaturePaths.signatureUpload, {
      method: 'POST',
      stream: { body: request.body, contentType },
    });
    if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
    return redirect('/signature?done=added');
  }
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const id = String(formData.get('id') ?? '');
  const row = rowIntent(formData.get('intent'));
  // Only the buttons' own intents act: anything else (missing, unknown) is refused before the platform is called.
  if (!row) return data({ error: Msg.badRequest }, { status: 400 });
  const res = await authedCall(request, context, row.path, { body: { id } });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(`/signature?done=${row.done}`);
}

export default function Signatures({ loaderData, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { list, error, notice } = loaderData;
  const csrf = useCsrfToken();
  return (
    <section className="page">
      <h1>签章管理</h1>
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      <DataTable
        headers={['签章名称', '签章图片', '创建时间', '操作']}
        items={list}
        empty="暂无签章"
        row={(s) => (
          <tr key={s.id} data-testid="seal-row">
            <td>
              {s.name} {s.is_default === '1' ? <span className="tag">默认</span> : null}
            </td>
            <td>
              <img src={appUrl(s.pic_url)} alt={`签章：${s.name}`} className="seal-img" />
            </td>
            <td>{s.add_time}</td>
            <td className="row-actions">
              {s.is_default === '1' ? null : (
                <ConfirmAction
                  summary="设为默认"
                  question={`确认将“${s.name}”设为默认签章？`}
                  confirm="确认"
                  intent="setDefault"
                  fields={{ id: s.id }}
                />
              )}
              <ConfirmAction
                summary="删除"
                question={`确认删除签章“${s.name}”？`}
                confirm="确认删除"
                intent="del"
                fields={{ id: s.id }}
                tone="danger"
              />
            </td>
          </tr>
        )}
      />
      <Form
        method="post"
        encType="multipart/form-data"
        action={`/signature?csrf=${encodeURIComponent(csrf)}`}
        className="card narrow-card upload-seal"
        noValidate
      >
        <h2 className="section-title">上传签章</h2>
        <Field label="签章名称" id="seal-name">
          <input id="seal-name" name="name" type="text" maxLength={30} />
        </Field>
        <fieldset className="field">
          <legend>是否默认</legend>
          <label>
            <input type="radio" name="isDefault" value="1" /> 是
          </label>{' '}
          <label>
            <input type="radio" name="isDefault" value="0" defaultChecked /> 否
          </label>
        </fieldset>
        <Field label="签章图片（PNG，不超过10MB）" id="seal-file">
          <input id="seal-file" name="file" type="file" accept="image/png" />
        </Field>
        <button type="submit" className="button primary">
          上传签章
        </button>
      </Form>
    </section>
  );
}
