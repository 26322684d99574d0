/**
 * The WeChat Pay sandbox's orders: in memory and (unless memory-only) in `${dataDir}/sandbox/wechatpay/orders.json`,
 * rewritten atomically (temp file + rename) after every change, so a restart keeps them. One sandbox process per
 * data directory. Amounts in integer fen; times in ms since the epoch.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TradeState } from './v3.ts';

/** Folder of the state file under the data directory. */
export const SANDBOX_STATE_DIR = path.join('sandbox', 'wechatpay');
/** Name of the state file. */
export const SANDBOX_STATE_FILE = 'orders.json';

/** Orders older than this are dropped when the file is loaded (30 days, ms). */
const RETENTION_MS = 30 * 24 * 3600_000;

/** One delivery attempt of an order's notification. */
export interface DeliveryAttempt {
  /** When it was sent, ms. */
  at: number;
  /** The merchant's HTTP status, or null when there was no answer. */
  status: number | null;
}

/** States the sandbox produces: NOTPAY until the cashier or a close settles it. */
export type SandboxTradeState = Extract<TradeState, 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'PAYERROR'>;

/** One order, as Native下单 created it and the cashier or 关闭订单 moved it. */
export interface SandboxOrder {
  /** The cashier page's id (the `pr` of a real code_url): 32 hex digits from 128 random bits, its only secret. */
  prId: string;
  mchid: string;
  appid: string;
  outTradeNo: string;
  description: string;
  /** Integer fen. */
  amountFen: number;
  currency: string;
  notifyUrl: string;
  attach?: string;
  /** time_expire, ms; the cashier refuses to pay after it. */
  timeExpire?: number;
  tradeState: SandboxTradeState;
  /** 28 digits, set when paid. */
  transactionId?: string;
  /** ms. */
  createdAt: number;
  /** When the cashier or a close settled it, ms. */
  settledAt?: number;
  /** Notification delivery: attempts so far, and whether the merchant acknowledged (2xx). */
  notify: { attempts: DeliveryAttempt[]; acknowledged: boolean };
}

/** The sandbox's order store (see the module comment). */
export class SandboxOrderStore {
  private readonly byKey = new Map<string, SandboxOrder>();
  private readonly byPr = new Map<string, SandboxOrder>();
  private writing: Promise<void> = Promise.resolve();
  private readonly file: string | null;

  private constructor(file: string | null) {
    this.file = file;
  }

  /**
   * Opens the store at `file` (created on first write), or a memory-only store when `file` is null.
   * @throws when the file exists but cannot be read or parsed
   */
  static async open(file: string | null, now: number = Date.now()): Promise<SandboxOrderStore> {
    const store = new SandboxOrderStore(file);
    const text = file
      ? await fsp.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return null;
          throw err;
        })
      : null;
    for (const o of text ? (JSON.parse(text) as SandboxOrder[]) : []) {
      if (now - o.createdAt < RETENTION_MS) store.index(o);
    }
    return store;
  }

  private index(o: SandboxOrder): void {
    this.byKey.set(`${o.mchid}/${o.outTradeNo}`, o);
    this.byPr.set(o.prId, o);
  }

  /** The order `outTradeNo` of merchant `mchid`. */
  get(mchid: string, outTradeNo: string): SandboxOrder | undefined {
    return this.byKey.get(`${mchid}/${outTradeNo}`);
  }

  /** The order of a cashier page. */
  byPrId(prId: string): SandboxOrder | undefined {
    return this.byPr.get(prId);
  }

  /** Every order (for resuming deliveries after a restart). */
  all(): SandboxOrder[] {
    return [...this.byKey.values()];
  }

  /** Adds a new order and saves. */
  async add(o: SandboxOrder): Promise<void> {
    this.index(o);
    await this.save();
  }

  /**
   * Applies `change` to the order and saves; the change runs synchronously, so two changes never interleave.
   * @returns what `change` returned
   */
  async update<T>(o: SandboxOrder, change: (o: SandboxOrder) => T): Promise<T> {
    const result = change(o);
    await this.save();
    return result;
  }

  /** Writes the state file (queued after any write in progress); no-op for a memory-only store. */
  save(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const write = async () => {
      await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      await fsp.writeFile(tmp, JSON.stringify(this.all()), { mode: 0o600 });
      await fsp.rename(tmp, file);
    };
    this.writing = this.writing.then(write, write);
    return this.writing;
  }
}
