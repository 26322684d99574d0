/**
 * Asking witnesses to cosign the ledger's checkpoints (c2sp.org/tlog-witness; decision 035).
 * Each round, for each configured witness (LEDGER_WITNESSES: its URL and verifier key), the newest checkpoint is
 * sent to `<url>/add-checkpoint` with a consistency proof from the size the witness last cosigned (kept in
 * `ledger_witnesses`). Outcomes:
 *   - 200 with a cosignature that verifies under the witness's key: stored (the checkpoint note with the cosignature
 *     line appended), status `ok`;
 *   - 409 (the witness knows another size): the round retries once from the size it names; a size larger than the
 *     log's is a refusal (the log lost entries);
 *   - any other answer, or a cosignature that does not verify: status `refused`, with the witness's reason;
 *   - no answer within {@link WITNESS_TIMEOUT_MS}: `unreachable`.
 * Every change of status, and every refusal with a new reason, is an event in `ledger_witness_events` (the console's
 * /ops/ledger). Several platform instances may run rounds; the witness's own size check keeps them honest (a late
 * one gets 409 and catches up).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { openCosignatures, parseCosignerKey, type CosignerKey } from '../../contract/cosignature.ts';
import type { LedgerWitnessView } from '../../contract/ledger.ts';
import { Rounds } from '../core/rounds.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { consistencyProof } from './ledger.ts';
import type { TreeHeads } from './signer.ts';

/** How long a witness may take to answer, ms. */
export const WITNESS_TIMEOUT_MS = 10_000;
/** Longest reason kept from a witness's answer. */
const DETAIL_CHARS = 300;

/** A witness as configured: where it listens and its verifier key text. */
export interface WitnessTarget {
  url: string;
  key: string;
}

/** One witness, its key parsed. */
interface Witness {
  url: string;
  key: CosignerKey;
}

type Status = LedgerWitnessView['status'];

/**
 * Parses LEDGER_WITNESSES entries. @throws Error naming an entry whose key is not a cosignature/v1 verifier key
 */
export function parseWitnesses(targets: readonly WitnessTarget[]): Witness[] {
  return targets.map((t) => {
    const key = parseCosignerKey(t.key);
    if (!key) throw new Error(`LEDGER_WITNESSES: not a witness verifier key: ${t.key}`);
    return { url: t.url.replace(/\/+$/, ''), key };
  });
}

/** The rounds of one platform instance (`start`, `stop`, `round`: core/rounds.ts). */
export class LedgerWitnessing extends Rounds {
  private readonly db: Kysely<Database>;
  private readonly heads: TreeHeads;
  readonly witnesses: readonly Witness[];
  constructor(db: Kysely<Database>, heads: TreeHeads, witnesses: readonly Witness[], log: FastifyBaseLogger) {
    super(() => this.submitAll(), log, 'witness round failed');
    this.db = db;
    this.heads = heads;
    this.witnesses = witnesses;
  }

  /** Runs rounds every `intervalSeconds` when there are witnesses to ask. */
  override start(intervalSeconds: number): void {
    if (this.witnesses.length > 0) super.start(intervalSeconds);
  }

  /** One submission per witness; one that fails does not keep the others from being asked. */
  private async submitAll(): Promise<void> {
    for (const w of this.witnesses) {
      await this.submit(w).catch((err: unknown) => this.log.error({ err }, 'witness round failed'));
    }
  }

  private async submit(w: Witness): Promise<void> {
    const sth = await this.heads.current();
    const note = sth.checkpoint;
    if (!note) return;
    const row = await this.witnessRow(w);
    if (row.status === 'ok' && Number(row.size) === sth.treeSize && row.root_hash === sth.rootHash) return;
    let old = Number(row.size);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await this.post(w, old, sth.treeSize, note);
      if (answer.status === 409 && attempt === 0) {
        const size = Number(answer.body.trim());
        if (Number.isSafeInteger(size) && size >= 0 && size <= sth.treeSize) {
          old = size;
          continue;
        }
        return this.record(w, row, 'refused', sth.treeSize, `见证方已联署更大的树（${answer.body.trim()}）`);
      }
      if (answer.status === 200) {
        const cosigned = `${note}${answer.body.endsWith('\n') ? answer.body : `${answer.body}\n`}`;
        const { verified } = openCosignatures(cosigned, [w.key]);
        if (verified.length === 0) {
          return this.record(w, row, 'refused', sth.treeSize, '见证方返回的联署签名无效');
        }
        await this.db
          .updateTable('ledger_witnesses')
          .set({
            size: sth.treeSize,
            root_hash: sth.rootHash,
            cosigned_note: cosigned,
            cosigned_at: verified[0]!.timestamp,
          })
          .where('name', '=', w.key.name)
          .execute();
        return this.record(w, row, 'ok', sth.treeSize, '');
      }
      if (answer.status === 0) return this.record(w, row, 'unreachable', sth.treeSize, answer.body);
      return this.record(w, row, 'refused', sth.treeSize, `HTTP ${answer.status}：${answer.body.trim()}`);
    }
  }

  /** The witness's row, written only when it is new or its URL changed (not on every round). */
  private async witnessRow(w: Witness) {
    const read = () =>
      this.db.selectFrom('ledger_witnesses').selectAll().where('name', '=', w.key.name).executeTakeFirst();
    const row = await read();
    if (row?.url === w.url) return row;
    await this.db
      .insertInto('ledger_witnesses')
      .values({ name: w.key.name, url: w.url })
      .onConflict((oc) => oc.column('name').doUpdateSet({ url: w.url }))
      .execute();
    return (await read())!;
  }

  /** POSTs add-checkpoint. @returns the status and body (status 0 and the error when there was no answer) */
  private async post(
    w: Witness,
    old: number,
    size: number,
    note: string,
  ): Promise<{ status: number; body: string }> {
    const proof = old > 0 && old < size ? await consistencyProof(this.db, old, size) : [];
    const lines = proof.map((h) => `${Buffer.from(h, 'hex').toString('base64')}\n`).join('');
    try {
      const res = await fetch(`${w.url}/add-checkpoint`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `old ${old}\n${lines}\n${note}`,
        signal: AbortSignal.timeout(WITNESS_TIMEOUT_MS),
      });
      return { status: res.status, body: (await res.text()).slice(0, DETAIL_CHARS) };
    } catch (err) {
      return { status: 0, body: `无法连接见证方（${(err as Error).name}）` };
    }
  }

  /** Stores the attempt's outcome; an event when the status changed or a refusal's reason did. */
  private async record(
    w: Witness,
    before: { status: string; detail: string },
    status: Status,
    treeSize: number,
    detail: string,
  ) {
    const at = nowSeconds();
    await this.db
      .updateTable('ledger_witnesses')
      .set({ status, detail: detail.slice(0, DETAIL_CHARS), attempted_at: at })
      .where('name', '=', w.key.name)
      .execute();
    // an event when the status changes, or a refusal gives another reason (not one per round while it lasts)
    if (
      status !== before.status ||
      (status === 'refused' && detail.slice(0, DETAIL_CHARS) !== before.detail)
    ) {
      await this.db
        .insertInto('ledger_witness_events')
        .values({
          witness: w.key.name,
          at,
          status,
          tree_size: treeSize,
          detail: detail.slice(0, DETAIL_CHARS),
        })
        .execute();
    }
    if (status === 'refused')
      this.log.warn({ witness: w.key.name, treeSize, detail }, 'a witness refused the checkpoint');
  }
}
