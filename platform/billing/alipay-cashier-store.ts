/**
 * The sandbox Alipay cashier's trades and their asynchronous notifications (alipay-cashier.ts): trades in memory
 * and in `${dataDir}/alipay-sandbox/trades.json` (rewritten atomically after each change), and the notifier that
 * POSTs the signed `trade_status_sync` notification to the trade's notify_url until it answers the literal
 * `success`, as Alipay does (a few quick attempts per round; unacknowledged ones resume when the sandbox restarts).
 * Amounts are Alipay's yuan text (`total_amount`); times ms since the epoch.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestSignContent, rsa2Sign, type AlipaySandboxKeys } from '../kyc/alipay-sandbox-keys.ts';

/** WAIT_BUYER_PAY until the cashier pays it or a close ends it. */
export type SandboxTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';

/** One trade, created when the payer's browser first opens alipay.trade.page.pay. */
export interface SandboxTrade {
  /** The cashier page's id: 32 hex digits (128 random bits), the page's only secret. */
  cashierId: string;
  /** Alipay's trade number: 28 digits. */
  tradeNo: string;
  appId: string;
  sellerId: string;
  outTradeNo: string;
  subject: string;
  /** Yuan with two decimals, as sent. */
  totalAmount: string;
  notifyUrl: string;
  returnUrl: string;
  /** time_expire, ms; the cashier refuses to pay after it. */
  timeExpire?: number;
  status: SandboxTradeStatus;
  createdAt: number;
  paidAt?: number;
  /** One notify_id per trade (kept across retries, as Alipay does). */
  notifyId: string;
  notify: { attempts: { at: number; ok: boolean }[]; acknowledged: boolean };
}

const RETENTION_MS = 30 * 24 * 3600_000;

/** The trades (see the module comment). One sandbox process per file. */
export class TradeStore {
  private readonly trades = new Map<string, SandboxTrade>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly file: string | null;

  private constructor(file: string | null) {
    this.file = file;
  }

  /** Opens `file` (null: memory only; a missing file starts empty). @throws when it is not JSON */
  static async open(file: string | null, now = Date.now()): Promise<TradeStore> {
    const store = new TradeStore(file);
    const saved = file
      ? await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return '[]';
          throw e;
        })
      : '[]';
    const list = JSON.parse(saved) as SandboxTrade[];
    for (const t of list.filter((x) => now - x.createdAt < RETENTION_MS)) store.trades.set(t.outTradeNo, t);
    return store;
  }

  get(outTradeNo: string): SandboxTrade | undefined {
    return this.trades.get(outTradeNo);
  }

  byCashierId(id: string): SandboxTrade | undefined {
    return [...this.trades.values()].find((t) => t.cashierId === id);
  }

  all(): SandboxTrade[] {
    return [...this.trades.values()];
  }

  /** Adds or changes a trade (the change runs synchronously) and saves. @returns what `change` returned */
  async change<T>(trade: SandboxTrade, change: (t: SandboxTrade) => T): Promise<T> {
    const result = change(trade);
    this.trades.set(trade.outTradeNo, trade);
    const file = this.file;
    if (file) {
      const text = JSON.stringify(this.all());
      this.queue = this.queue.then(async () => {
        await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        await fsp.writeFile(`${file}.tmp`, text, { mode: 0o600 });
        await fsp.rename(`${file}.tmp`, file);
      });
      await this.queue;
    }
    return result;
  }
}

/** Alipay's "YYYY-MM-DD HH:mm:ss", Beijing time. */
export function alipayTime(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A new 28-digit trade number (Beijing date + 20 random digits). */
export function newTradeNo(now: number): string {
  const digits = [...randomBytes(20)].map((b) => String(b % 10)).join('');
  return `${alipayTime(now).slice(0, 10).replaceAll('-', '')}${digits}`;
}

/** What a test may change in a notification: another field value (signed genuinely), or a broken signature. */
export interface AlipayNotificationOptions {
  overrides?: Record<string, string>;
  tamper?: 'signature';
}

/**
 * The trade's `trade_status_sync` notification as form fields: signed with the sandbox's key over every field but
 * `sign` and `sign_type` (Alipay's 异步通知验签 rule), then `sign_type` RSA2 and `sign`.
 */
export function buildAlipayNotification(
  trade: SandboxTrade,
  keys: AlipaySandboxKeys,
  now: number,
  opts: AlipayNotificationOptions = {},
): Record<string, string> {
  const fields: Record<string, string> = {
    notify_time: alipayTime(now),
    notify_type: 'trade_status_sync',
    notify_id: trade.notifyId,
    charset: 'utf-8',
    version: '1.0',
    app_id: trade.appId,
    auth_app_id: trade.appId,
    trade_no: trade.tradeNo,
    out_trade_no: trade.outTradeNo,
    trade_status: trade.status,
    total_amount: trade.totalAmount,
    receipt_amount: trade.totalAmount,
    buyer_pay_amount: trade.totalAmount,
    seller_id: trade.sellerId,
    buyer_id: '2088102177846880',
    subject: trade.subject,
    gmt_create: alipayTime(trade.createdAt),
    ...(trade.paidAt ? { gmt_payment: alipayTime(trade.paidAt) } : {}),
    ...opts.overrides,
  };
  let sign = rsa2Sign(requestSignContent(fields), keys.alipayPrivateKey);
  if (opts.tamper === 'signature') sign = `${sign[0] === 'A' ? 'B' : 'A'}${sign.slice(1)}`;
  return { ...fields, sign_type: 'RSA2', sign };
}

/** POSTs the fields form-encoded; true when the merchant answered 2xx with the literal `success`. */
export async function postAlipayNotification(
  url: string,
  fields: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ ok: boolean; status: number | null; body: string }> {
  const timeout = AbortSignal.timeout(5000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const body = await res.text();
    return { ok: res.ok && body.trim() === 'success', status: res.status, body };
  } catch {
    return { ok: false, status: null, body: '' };
  }
}

/** Delivers paid trades' notifications in the background, one round per trade at a time (see the module comment). */
export class AlipayNotifier {
  private readonly rounds = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();
  private readonly keys: AlipaySandboxKeys;
  private readonly store: TradeStore;
  private readonly delaysMs: readonly number[];
  private readonly now: () => number;

  constructor(keys: AlipaySandboxKeys, store: TradeStore, delaysMs: readonly number[], now: () => number) {
    this.keys = keys;
    this.store = store;
    this.delaysMs = delaysMs;
    this.now = now;
  }

  /** Starts a round for the trade unless one runs; `firstDelayMs` replaces the first delay. */
  dispatch(trade: SandboxTrade, firstDelayMs?: number): void {
    if (this.stop.signal.aborted || this.rounds.has(trade.outTradeNo)) return;
    const delays = [firstDelayMs ?? this.delaysMs[0] ?? 0, ...this.delaysMs.slice(1)];
    const round = this.round(trade, delays).finally(() => this.rounds.delete(trade.outTradeNo));
    this.rounds.set(trade.outTradeNo, round);
  }

  /** Sends one notification now (genuine or as `opts` says) to `url` (default the trade's) and records it. */
  async sendOnce(trade: SandboxTrade, opts: AlipayNotificationOptions = {}, url = trade.notifyUrl) {
    const fields = buildAlipayNotification(trade, this.keys, this.now(), opts);
    const answer = await postAlipayNotification(url, fields, this.stop.signal);
    await this.record(trade, answer.ok);
    return { ...answer, fields };
  }

  /** Resolves when no round runs. */
  async idle(): Promise<void> {
    while (this.rounds.size > 0) await Promise.allSettled([...this.rounds.values()]);
  }

  /** Stops every round and waits for them. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.idle();
  }

  private async round(trade: SandboxTrade, delays: readonly number[]): Promise<void> {
    for (const ms of delays) {
      try {
        await sleep(ms, undefined, { signal: this.stop.signal });
      } catch {
        return;
      }
      const fields = buildAlipayNotification(trade, this.keys, this.now());
      const { ok } = await postAlipayNotification(trade.notifyUrl, fields, this.stop.signal);
      if (this.stop.signal.aborted) return;
      if (await this.record(trade, ok)) return;
    }
  }

  private record(trade: SandboxTrade, ok: boolean): Promise<boolean> {
    return this.store.change(trade, (t) => {
      t.notify.attempts = [...t.notify.attempts, { at: this.now(), ok }].slice(-20);
      if (ok) t.notify.acknowledged = true;
      return ok;
    });
  }
}
