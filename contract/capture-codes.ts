/**
 * Online capture's paths, limits, messages, state words and shapes without zod (decision 037; spec 01 §2), for the
 * pages that show them without loading the capture schemas (decision 031: first-load JS). contract/capture.ts
 * re-exports them beside the request schemas. Times are unix seconds. No I/O.
 */
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

/** Steps one process capture may hold. */
export const MAX_PROCESS_STEPS = 20;

/** One step of a process capture's script (decision 037). */
export type ProcessStep =
  | { action: 'visit'; url: string }
  | { action: 'click'; target: string }
  | { action: 'type'; target: string; text: string }
  | { action: 'scroll'; pixels: number }
  | { action: 'wait'; seconds: number }
  | { action: 'screenshot' };

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
