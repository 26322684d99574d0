/**
 * Online capture's contract (decision 037; spec 01 §2 `/newWeb`, `/evidences-all/web`): a user asks for a web capture
 * of one or more URLs; the job waits in the platform (so it survives restarts and any gateway may run it), a
 * gateway's capture worker claims it with a lease, captures (server/capture/web-capture.ts) and completes it with the
 * WACZ, which becomes the user's evidence of kind `web`, or fails it with a reason in Chinese. Times are unix
 * seconds.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { freeText } from './validators.ts';
import {
  CaptureMsg,
  MAX_CAPTURE_URL_CHARS,
  MAX_CAPTURE_URLS,
  MAX_PROCESS_STEPS,
  type ProcessStep,
} from './capture-codes.ts';

// The paths, limits, messages, words and shapes live without zod in contract/capture-codes.ts (pages import them from
// there).
export {
  CapturePaths,
  type CaptureVideoData,
  MAX_CAPTURE_URLS,
  MAX_CAPTURE_URL_CHARS,
  MAX_OPEN_CAPTURES_PER_USER,
  MAX_CAPTURE_ATTEMPTS,
  CaptureMsg,
  MAX_PROCESS_STEPS,
  type ProcessStep,
  type CaptureKind,
  type CaptureStatus,
  CAPTURE_STATUS_WORDS,
  PROCESS_ACTION_WORDS,
  CAPTURE_REFRESH_SECONDS,
  type CaptureJobView,
  type ClaimedCaptureJob,
} from './capture-codes.ts';

/** One URL as the form gives it: trimmed, http(s), no credentials, bounded. */
const CaptureUrl = z
  .string()
  .trim()
  .min(1, CaptureMsg.urlRequired)
  .max(MAX_CAPTURE_URL_CHARS, CaptureMsg.urlInvalid('（过长）'))
  .superRefine((value, ctx) => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: CaptureMsg.urlInvalid(value) });
      return;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: CaptureMsg.urlScheme });
    else if (u.username || u.password)
      ctx.addIssue({ code: 'custom', message: CaptureMsg.urlInvalid(value) });
  });

/**
 * `POST /api/capture/web`: the URLs (an array, or one text with a URL per line as a textarea sends it), the
 * evidence's title and label.
 */
export const CreateWebCaptureBody = z.object({
  urls: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/\r?\n/).filter((l) => l.trim() !== '') : v),
    z.array(CaptureUrl).min(1, CaptureMsg.urlRequired).max(MAX_CAPTURE_URLS, CaptureMsg.tooManyUrls),
  ),
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
export type CreateWebCaptureBody = z.infer<typeof CreateWebCaptureBody>;

/** A step as the process form sends it: the action and its one or two values (`value`: URL, selector or link text,
 * pixels or seconds; `text`: what to type). */
const ProcessStepRow = z
  .object({
    action: z.enum(['visit', 'click', 'type', 'scroll', 'wait', 'screenshot'], { error: '请选择步骤类型' }),
    value: z.string().trim().max(MAX_CAPTURE_URL_CHARS).optional(),
    text: z.string().max(500).optional(),
  })
  .transform((row, ctx): ProcessStep => {
    const value = row.value ?? '';
    const need = (message: string) => {
      ctx.addIssue({ code: 'custom', message, path: ['value'] });
      return z.NEVER;
    };
    switch (row.action) {
      case 'visit': {
        const url = CaptureUrl.safeParse(value);
        return url.success ? { action: 'visit', url: url.data } : need(url.error.issues[0]!.message);
      }
      case 'click':
        return value
          ? { action: 'click', target: value }
          : need('请填写要点击的元素（CSS 选择器或链接文字）');
      case 'type':
        return value
          ? { action: 'type', target: value, text: row.text ?? '' }
          : need('请填写输入框（CSS 选择器）');
      case 'scroll': {
        const pixels = Number(value || 600);
        return Number.isInteger(pixels) && Math.abs(pixels) <= 100_000
          ? { action: 'scroll', pixels }
          : need('滚动距离须为整数像素');
      }
      case 'wait': {
        const seconds = Number(value || 2);
        return Number.isInteger(seconds) && seconds >= 1 && seconds <= 30
          ? { action: 'wait', seconds }
          : need('等待时间须为 1–30 秒');
      }
      case 'screenshot':
        return { action: 'screenshot' };
    }
  });

/** `POST /api/capture/process`: the script (its first step must open a URL), the evidence's title and label. */
export const CreateProcessCaptureBody = z.object({
  // an array, or its JSON text (the gateway forwards the form's rows that way)
  steps: z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z
      .array(ProcessStepRow)
      .min(1, '请添加取证步骤')
      .max(MAX_PROCESS_STEPS, `最多 ${MAX_PROCESS_STEPS} 个步骤`)
      .refine((steps) => steps[0]?.action === 'visit', '第一步须为“打开网址”'),
  ),
  title: freeText('证据名称', 100),
  label: freeText('标签', 30),
});
export type CreateProcessCaptureBody = z.infer<typeof CreateProcessCaptureBody>;

/** The kinds of capture job. */

/** `POST /api/internal/capture/claim`. */
export const ClaimCaptureBody = z.object({
  worker: z.string().min(1).max(64),
  leaseSeconds: z.coerce.number().int().min(10).max(3600),
});

/** `POST /api/internal/capture/fail`. */
export const FailCaptureBody = z.object({
  jobId: z.coerce.number().int().positive(),
  worker: z.string().min(1).max(64),
  error: z.string().min(1).max(500),
});

/** The text fields of `POST /api/internal/capture/complete`. */
export const CompleteCaptureFields = z.object({
  jobId: z.coerce.number().int().positive(),
  worker: z.string().min(1).max(64),
});

/** `GET /api/capture/jobs`: the kind listed (both when absent). */
export const CaptureJobsQuery = z.object({ kind: z.enum(['web', 'process']).optional() });

/** `GET /api/capture/job`. */
export const CaptureJobQuery = z.object({ id: z.coerce.number().int().positive() });
