/**
 * The operator console, the area's contract (ours: the spec shows no admin role; docs/decisions/011-kyc-review.md
 * and 015-operator-console-roles.md): the operator roles, the console's own paths (login, logout, who am I, the
 * home with every queue the operator may see, the audit log of all areas) and `OpsMsg`. Each area's queue keeps
 * its paths, bodies and types in that area's contract (the KYC review: contract/kyc-review.ts). No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';

/**
 * The roles an operator holds (one or more, set with the `ops` CLI): `reviewer` reviews real-name verifications,
 * `finance` works the payment and invoice queues, `notary` the notary office's queue, `admin` reads the whole
 * audit log. A role opens only its own queues: `admin` does not imply the others.
 */
export const OPS_ROLES = ['reviewer', 'finance', 'notary', 'admin'] as const;
/** One operator role. */
export type OpsRole = (typeof OPS_ROLES)[number];

/** Operator console messages, zh-CN (ours). */
export const OpsMsg = {
  usernameRequired: '请输入用户名',
  passwordRequired: '请输入密码',
  loginFailed: '用户名或密码错误',
  /** The operator lacks the role a queue needs (HTTP and envelope code 403). */
  forbidden: '无权访问',
  sessionExpired: '登录已过期，请重新登录',
  loggedOut: '已退出运营后台',
  noQueues: '暂无可处理的队列',
} as const;

/** The console's own calls; every one but login needs the operator's bearer token (envelope 408 otherwise). */
export const OpsPaths = {
  /** `POST {username, password}` → {@link OpsLoginData}. Separate accounts and tokens from users. */
  login: '/api/ops/login',
  /** `POST` → msg; revokes the token. */
  logout: '/api/ops/logout',
  /** `GET` → {@link OpsOperator}: who is logged in and their roles. */
  me: '/api/ops/me',
  /** `GET` → {@link OpsHomeData}: each queue the operator's roles open, with what waits in it. */
  home: '/api/ops/home',
  /** `GET {page?}` → {@link AuditListData}: decisions of the areas the operator's roles open (admin: all). */
  audit: '/api/ops/audit',
} as const;

/** Rows per page of the console's lists. */
export const OPS_PAGE_SIZE = 20;

/** A list page number: 1–100000, default 1. */
export const opsPage = z.coerce.number().int().min(1).max(100000).default(1);
/** `GET /api/ops/audit` query. */
export const OpsPageQuery = z.object({ page: opsPage });

/** `POST /api/ops/login` body. */
export const OpsLoginBody = z.object({
  username: z.string({ error: OpsMsg.usernameRequired }).trim().min(1, OpsMsg.usernameRequired).max(60),
  password: z.string({ error: OpsMsg.passwordRequired }).min(1, OpsMsg.passwordRequired).max(100),
});

/** An operator as the console sees it. */
export interface OpsOperator {
  username: string;
  roles: OpsRole[];
}

/** `POST /api/ops/login` → the operator's token (8 hours) and who they are. */
export interface OpsLoginData {
  token: string;
  /** Seconds the token lives. */
  expiresIn: number;
  operator: OpsOperator;
}

/** One waiting item of a queue, as the console home lists it. */
export interface OpsQueueItem {
  /** The item's id within its area (the KYC queue: the user id; the billing queue: the order's row id). */
  id: number;
  /** The path segment of its detail page, `<queue path>/<ref>` (the KYC queue: the user id; billing: the order no). */
  ref: string;
  /** Who or what it concerns (the KYC queue: the user's mobile). */
  subject: string;
  /** Its name (the KYC queue: the person's or the company's name). */
  name: string;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  submittedAt: string;
}

/** One queue on the console home: its area, how many items wait, and the oldest of them (at most a page). */
export interface OpsQueueSummary {
  area: string;
  count: number;
  items: OpsQueueItem[];
}

/** `GET /api/ops/home`. */
export interface OpsHomeData {
  operator: OpsOperator;
  queues: OpsQueueSummary[];
}

/** One row of the audit log: who did what to which subject of which area, and the remark. */
export interface AuditEntry {
  id: number;
  /** The area (`kyc`, `ops`, …). */
  area: string;
  /** The operator's username; '' for the command line (operator accounts). */
  operator: string;
  /** The area's action (`approve`, `reject`, `create`, `roles`, …). */
  action: string;
  /** What was acted on, as the area names it (the KYC review: the user id; operator accounts: the username). */
  subject: string;
  /** The user concerned, if any, and their mobile ('' when none). */
  userId: number | null;
  mobile: string;
  remark: string;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  at: string;
}

/** `GET /api/ops/audit`: newest first. */
export interface AuditListData {
  list: AuditEntry[];
  count: number;
}
