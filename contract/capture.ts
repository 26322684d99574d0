/**
 * Online capture's contract (issue 15; spec 01 §2 `/newWeb`, `/evidences-all/web`): a user asks for a web capture of
 * one or more URLs; the job waits in the platform (so it survives restarts and any gateway may run it), a gateway's
 * capture worker claims it with a lease, captures (server/capture/web-capture.ts) and completes it with the WACZ,
 * which becomes the user's evidence of kind `web`, or fails it with a reason in Chinese. Times are unix seconds.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { freeText } from './validators.ts';

export const CapturePaths = {
  /** `POST` (user, verified) `{urls, title, label}` → {@link CaptureJobView}. */
  createWeb: '/api/capture/web',
  /** `POST` (user, verified) `{steps, title, label}` (JSON) → {@link CaptureJobView}. */
  createProcess: '/api/capture/process',
  /** `GET` (user) `?kind=web|process` → {@link CaptureJobView}[], the user's newest first (at most 50). */
  jobs: '/api/capture/jobs',
  /** `GET` (user) `?id=` → {@link CaptureJobView} of one of the user's jobs. */
  job: '/api/capture/job',
  /** `POST` (internal key) `{worker, leaseSeconds}` → {@link ClaimedCaptureJob} or null. */
  claim: '/api/internal/capture/claim',
  /** `POST` (internal key, multipart: `jobId`, `worker`, `meta` JSON, the file part `wacz`) → {@link CaptureJobView}. */
  complete: '/api/internal/capture/complete',
  /** `POST` (internal key) `{jobId, worker, error}` → {@link CaptureJobView}. */
  fail: '/api/internal/capture/fail',
  /**
   * `GET` (anyone who may see the certificate) → PNG: the screenshot of page (web) or step (process) `:n` (1-based)
   * from the evidence's WACZ; 404 when there is none or the data was deleted.
   */
  shot: '/api/capture/shot/:baoquan/:n',
  /** `GET` (owner) `?baoquan=` → {@link CaptureVideoData}: a signed, expiring URL of the process capture's video. */
  videoUrl: '/api/capture/videoUrl',
  /** `GET ?exp=&sig=` (the signed URL) → the video (WebM) from the WACZ. */
  video: '/api/capture/video/:baoquan',
} as const;

/** `videoUrl` → a same-origin URL of the video, valid for a few minutes. */
export interface CaptureVideoData {
  url: string;
}

/** URLs one web capture may hold (CAPTURE_MAX_PAGES defaults to the same). */
export const MAX_CAPTURE_URLS = 10;
/** Longest URL accepted (characters). */
export const MAX_CAPTURE_URL_CHARS = 2048;
/** Jobs of one user queued or running at once. */
export const MAX_OPEN_CAPTURES_PER_USER = 2;
/** Times a job is claimed before an interrupted one is failed instead of retried. */
export const MAX_CAPTURE_ATTEMPTS = 3;

export const CaptureMsg = {
  urlRequired: '请输入要取证的网址',
  urlInvalid: (url: string) => `网址格式不正确：${url.slice(0, 80)}`,
  urlScheme: '只能取证 http:// 或 https:// 开头的网址',
  tooManyUrls: `一次最多取证 ${MAX_CAPTURE_URLS} 个网址`,
  tooManyOpen: '您已有取证任务在进行中，请完成后再提交',
  jobMissing: '取证任务不存在',
  interrupted: '取证任务多次中断，请重新提交',
  queued: '取证任务已提交',
} as const;

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

/** Steps one process capture may hold. */
export const MAX_PROCESS_STEPS = 20;

/** One step of a process capture's script (issue 15 point 3). */
export type ProcessStep =
  | { action: 'visit'; url: string }
  | { action: 'click'; target: string }
  | { action: 'type'; target: string; text: string }
  | { action: 'scroll'; pixels: number }
  | { action: 'wait'; seconds: number }
  | { action: 'screenshot' };

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
export type CaptureKind = 'web' | 'process';

/** A job's state: waiting, being captured, preserved as evidence, or failed. */
export type CaptureStatus = 'queued' | 'running' | 'done' | 'failed';

/** The states as the pages name them. */
export const CAPTURE_STATUS_WORDS: Record<CaptureStatus, string> = {
  queued: '排队中',
  running: '取证中',
  done: '已保全',
  failed: '取证失败',
};

/** The step actions as the form, the log and the pages name them. */
export const PROCESS_ACTION_WORDS: Record<ProcessStep['action'], string> = {
  visit: '打开网址',
  click: '点击',
  type: '输入文字',
  scroll: '滚动页面',
  wait: '等待',
  screenshot: '截图',
};

/** Seconds between the self-refreshes of a capture's pages while it is open. */
export const CAPTURE_REFRESH_SECONDS = 3;

/** A capture job as its owner sees it. */
export interface CaptureJobView {
  id: number;
  kind: CaptureKind;
  title: string;
  label: string;
  /** The URLs of a web capture; of a process capture, those its script opens. */
  urls: string[];
  status: CaptureStatus;
  /** Why it failed, in Chinese; null unless failed. */
  error: string | null;
  /** The evidence it became, once done. */
  baoquan: string | null;
  /** A finished process capture's step log (n from 1; `error` in Chinese), else null. */
  log:
    { n: number; action: ProcessStep['action']; detail: string; ok: boolean; error: string | null }[] | null;
  createdAt: number;
  updatedAt: number;
}

/** A job a worker claimed: what to capture, until when it holds the lease. */
export interface ClaimedCaptureJob {
  id: number;
  kind: CaptureKind;
  title: string;
  urls: string[];
  /** A process capture's script (empty for a web capture). */
  steps: ProcessStep[];
  attempt: number;
  leaseUntil: number;
}

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
