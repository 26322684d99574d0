/**
 * /evidences-all/music/new: preserve a music work (decision 039) — the audio file, the work's title, its authors
 * by role (six rows; empty ones are ignored, so no script is needed to add rows) and its ISRC when it has one. Like
 * /newAccessCard, the multipart body is streamed to the platform untouched (CSRF token in the action URL), which
 * reads the duration and format from the file and answers the contract's Chinese message on a refusal; success
 * lands on the certificate (Post/Redirect/Get).
 */
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/new-music';
import { formatBytes } from '../../contract/messages.ts';
import { MAX_MUSIC_AUTHORS, MUSIC_ROLES, MusicPaths } from '../../contract/music-codes.ts';
import { forwardUpload } from '../evidence/forward-upload.server.ts';
import { useCsrfToken } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { kycGateHref } from '../kyc/gate.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';
import { CaptureTabs } from './capture-tabs.tsx';

export const meta: Route.MetaFunction = () => [{ title: '新建音乐作品保全 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { maxBytes: context.maxUploadBytes, gate: await kycGateHref(request, context) };
}

export const action = ({ request, context }: Route.ActionArgs) =>
  forwardUpload(request, context, MusicPaths.save);

export default function NewMusic({ loaderData, actionData }: Route.ComponentProps) {
  const { maxBytes, gate } = loaderData;
  const gated = !!actionData && 'gated' in actionData;
  const busy = useNavigation().state === 'submitting';
  const csrf = useCsrfToken();
  const rows = Array.from({ length: MAX_MUSIC_AUTHORS }, (_, i) => i);
  return (
    <section className="page narrow">
      <h1>在线取证</h1>
      <CaptureTabs current="music" />
      <h2>新建音乐作品保全</h2>
      <p className="lead">
        上传作品的音频文件（MP3、FLAC、WAV、AAC、OGG 等，不超过 {formatBytes(maxBytes)}
        ），填写作品名称和作者。 平台从文件读取时长和格式，计算 SHA-256 并记录到存证账本，出具保全证书。
      </p>
      {gate || gated ? (
        <KycGateNotice href={gate ?? '/no-type'} message={gated ? actionData?.error : undefined} />
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        action={`/evidences-all/music/new?csrf=${encodeURIComponent(csrf)}`}
        className="card"
        noValidate
      >
        <Field label="作品名称" id="title">
          <input id="title" name="title" type="text" maxLength={100} required />
        </Field>
        <Field label="ISRC（国际标准录音制品编码，可选）" id="isrc">
          <input
            id="isrc"
            name="isrc"
            type="text"
            maxLength={15}
            placeholder="如 CN-A12-26-00001"
            autoComplete="off"
          />
        </Field>
        <fieldset className="author-rows">
          <legend>作者（至少一位，不需要的行留空）</legend>
          {rows.map((i) => (
            <div className="inline-form" key={i} data-testid="music-author">
              <Field label={`第 ${i + 1} 位作者的角色`} id={`author-role-${i}`}>
                <select
                  id={`author-role-${i}`}
                  name={`authors[${i}].role`}
                  defaultValue={i === 0 ? '作曲' : ''}
                >
                  <option value="">（未填）</option>
                  {MUSIC_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={`第 ${i + 1} 位作者的姓名`} id={`author-name-${i}`}>
                <input id={`author-name-${i}`} name={`authors[${i}].name`} type="text" maxLength={50} />
              </Field>
            </div>
          ))}
        </fieldset>
        <Field label="标签" id="label">
          <input id="label" name="label" type="text" maxLength={30} placeholder="可选，用于分类筛选" />
        </Field>
        <Field label="音频文件" id="file">
          <input id="file" name="file" type="file" accept="audio/*" required />
        </Field>
        <FormErrors errors={actionData?.error && !gated ? [actionData.error] : undefined} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? '正在上传并保全…' : '提交保全'}
        </button>
        <p className="muted">
          <Link to="/evidences-all/music">返回音乐作品列表</Link>
        </p>
      </Form>
    </section>
  );
}
