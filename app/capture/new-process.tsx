/**
 * /newProcess: process capture (spec 01 §2 routes; decision 037). The user writes a short script — open a URL,
 * click, type, scroll, wait, screenshot — one row a step; 添加步骤 and 删除 are form submissions (Conform's list
 * intents), so rows are added and removed by a server round trip without JavaScript and at once with it. 开始取证
 * queues the job (Post/Redirect/Get) and leads to its progress page (/evidences-all/process/queue/:id). The gateway's
 * worker replays the script in an isolated browser while recording a video (server/capture/process-capture.ts).
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react';
import { Form, Link } from 'react-router';
import type { Route } from './+types/new-process';
import { CapturePaths, MAX_PROCESS_STEPS } from '../../contract/capture-codes.ts';
import { CreateProcessCaptureBody } from '../../contract/capture.ts';
import { kycGateHref } from '../kyc/gate.server.ts';
import { queueCapture } from './queue-capture.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { CaptureEvidenceFields } from './evidence-fields.tsx';

export const meta: Route.MetaFunction = () => [{ title: '过程取证 - 存证云' }];

/** The form's shape: a row per step (`value` holds the URL, selector or link text, pixels or seconds). */
interface StepRow {
  action: string;
  value: string;
  text: string;
}

const ACTIONS: [string, string][] = [
  ['visit', '打开网址'],
  ['click', '点击（CSS 选择器或链接文字）'],
  ['type', '输入文字（填 CSS 选择器和文字）'],
  ['scroll', '滚动页面（像素，默认 600）'],
  ['wait', '等待（秒，1–30）'],
  ['screenshot', '截图'],
];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { gate: await kycGateHref(request, context) };
}

export function action({ request, context }: Route.ActionArgs) {
  // 添加步骤 / 删除 answer the same form back with one row more or less
  return queueCapture(request, context, {
    schema: CreateProcessCaptureBody,
    path: CapturePaths.createProcess,
    // the rows as entered (the platform checks them with the same schema)
    body: (value, payload) => ({
      steps: JSON.stringify(payload.steps),
      title: value.title,
      label: value.label,
    }),
    next: (job) => `/evidences-all/process/queue/${job.id}`,
  });
}

export default function NewProcessCapture({ loaderData, actionData }: Route.ComponentProps) {
  const gated = actionData && 'gated' in actionData ? String(actionData.gated) : null;
  const [form, fields] = useForm<{ steps: StepRow[]; title: string; label: string }>({
    id: 'process-capture',
    lastResult: actionData?.result,
    defaultValue: { steps: [{ action: 'visit', value: '', text: '' }] },
  });
  const rows = fields.steps.getFieldList();
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/evidences-all/process">在线取证</Link> / 过程取证
      </p>
      <h1>过程取证</h1>
      <p className="lead">
        按步骤设定操作过程（第一步须为打开网址），平台在隔离的浏览器中依次执行并全程录像，每一步截图并记录日志，连同全部网络请求打包保全。
      </p>
      {loaderData.gate || gated ? (
        <KycGateNotice href={loaderData.gate ?? '/no-type'} message={gated ?? undefined} />
      ) : null}
      <Form method="post" {...getFormProps(form)} className="card" noValidate>
        <CsrfInput />
        <ErrorSummary form={form} />
        <ol className="process-steps">
          {rows.map((row, i) => {
            const step = row.getFieldset();
            return (
              <li key={row.key} data-testid="process-step">
                <Field label={`第 ${i + 1} 步`} id={step.action.id} errors={step.action.errors}>
                  <select {...getSelectProps(step.action)}>
                    {ACTIONS.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field
                  label={`第 ${i + 1} 步的网址、元素或数值`}
                  id={step.value.id}
                  errors={step.value.errors}
                >
                  <input
                    {...getInputProps(step.value, { type: 'text' })}
                    autoComplete="off"
                    spellCheck={false}
                  />
                </Field>
                <Field label={`第 ${i + 1} 步要输入的文字`} id={step.text.id} errors={step.text.errors}>
                  <input {...getInputProps(step.text, { type: 'text' })} autoComplete="off" />
                </Field>
                {rows.length > 1 ? (
                  <button
                    className="button"
                    {...form.remove.getButtonProps({ name: fields.steps.name, index: i })}
                  >
                    删除第 {i + 1} 步
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
        {rows.length < MAX_PROCESS_STEPS ? (
          <button
            className="button"
            {...form.insert.getButtonProps({
              name: fields.steps.name,
              defaultValue: { action: 'screenshot', value: '', text: '' },
            })}
          >
            添加步骤
          </button>
        ) : null}
        <CaptureEvidenceFields title={fields.title} label={fields.label} />
        <FormErrors errors={form.errors} />
        <button type="submit" className="button primary">
          开始取证
        </button>
      </Form>
    </section>
  );
}
