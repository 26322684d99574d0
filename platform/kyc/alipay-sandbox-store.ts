/**
 * The sandbox Alipay gateway's certifications (alipay-sandbox.ts): in memory and in
 * `${dataDir}/alipay-sandbox/certifications.json`, rewritten atomically after every change. Only masked personal
 * data is kept.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';

/** INIT until the tester decides on the page; PASSED/FAILED are final. */
export type CertificationState = 'INIT' | 'PASSED' | 'FAILED';

/** One certification. Only masked personal data is kept: the ID number never reaches the state file. */
export interface SandboxCertification {
  /** 32 hex digits from 128 random bits: the handle, and the page's only secret. */
  certifyId: string;
  appId: string;
  outerOrderNo: string;
  bizCode: string;
  /** SHA-256 (hex) of cert_type, cert_name and cert_no, to answer a repeated initialize idempotently. */
  identityDigest: string;
  /** The name with all but its first character masked. */
  maskedName: string;
  maskedCertNo: string;
  returnUrl: string;
  state: CertificationState;
  /** Milliseconds since the epoch. */
  createdAt: number;
  decidedAt?: number;
}

/** Certifications older than this are dropped when the file is loaded (30 days, ms). */
const STATE_RETENTION_MS = 30 * 24 * 3600_000;

/**
 * The sandbox's certifications, in memory and (unless `file` is null) in a JSON file rewritten atomically (temp +
 * rename) after every change, so a restart keeps them. One sandbox process per file.
 */
export class CertificationStore {
  private readonly items = new Map<string, SandboxCertification>();
  private writing: Promise<void> = Promise.resolve();
  private readonly file: string | null;

  private constructor(file: string | null) {
    this.file = file;
  }

  /** Opens the store at `file` (created on first write), or a memory-only store when `file` is null. */
  static async open(file: string | null, now: number = Date.now()): Promise<CertificationStore> {
    const store = new CertificationStore(file);
    if (file) {
      const text = await fsp.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (text !== null) {
        for (const c of JSON.parse(text) as SandboxCertification[]) {
          if (now - c.createdAt < STATE_RETENTION_MS) store.items.set(c.certifyId, c);
        }
      }
    }
    return store;
  }

  get(certifyId: string): SandboxCertification | undefined {
    return this.items.get(certifyId);
  }

  findByOrder(appId: string, outerOrderNo: string): SandboxCertification | undefined {
    for (const c of this.items.values()) if (c.appId === appId && c.outerOrderNo === outerOrderNo) return c;
    return undefined;
  }

  async add(c: SandboxCertification): Promise<void> {
    this.items.set(c.certifyId, c);
    await this.persist();
  }

  /**
   * Records the tester's decision once: 'decided' the first time, 'same' when repeated with the same outcome,
   * 'conflict' when the other outcome was already recorded, 'missing' for an unknown certify_id.
   */
  async decide(
    certifyId: string,
    passed: boolean,
    now: number,
  ): Promise<'decided' | 'same' | 'conflict' | 'missing'> {
    const c = this.items.get(certifyId);
    if (!c) return 'missing';
    const target: CertificationState = passed ? 'PASSED' : 'FAILED';
    if (c.state !== 'INIT') return c.state === target ? 'same' : 'conflict';
    c.state = target;
    c.decidedAt = now;
    await this.persist();
    return 'decided';
  }

  private persist(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const run = async () => {
      const tmp = `${file}.${process.pid}.tmp`;
      await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await fsp.writeFile(tmp, JSON.stringify([...this.items.values()]), { mode: 0o600 });
      await fsp.rename(tmp, file);
    };
    this.writing = this.writing.then(run, run);
    return this.writing;
  }
}
