/**
 * RFC 3161 time stamps of the ledger's checkpoints (decision 035). When a TSA is configured
 * (TSA_URL), every TSA_INTERVAL_SECONDS the newest checkpoint, if the tree grew since the last stamp, is sent to the
 * TSA (RFC 3161 §3.4: POST `application/timestamp-query`; the message imprint is SHA-256 of the signed checkpoint
 * note's UTF-8 bytes, with a fresh nonce) and its token is kept (`ledger_timestamps`) only after it checked out: the
 * nonce, the imprint, the CMS signature, a time-stamping certificate chaining to TSA_CERT_FILE's certificates when
 * given (contract/timestamp-token.ts). A TSA that fails or answers badly is logged and asked again next time.
 * Evidence packages carry the newest stamped checkpoint holding their leaf (service.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { certificatesOfPem, readTimestampReply, timestampRequest } from '../../contract/timestamp-token.ts';
import { Rounds } from '../core/rounds.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { TreeHeads } from './signer.ts';

/** How long the TSA may take to answer, ms. */
export const TSA_TIMEOUT_MS = 15_000;
/** Largest reply read from a TSA (bytes): a token with its certificate chain is a few kilobytes. */
const MAX_REPLY_BYTES = 64 * 1024;

/** Where the TSA listens and what its tokens must chain to. */
export interface TsaTarget {
  url: string;
  /** PEM certificates (TSA_CERT_FILE), or null to check a token against the certificate it carries. */
  trustedPem: string | null;
}

const u8 = (b: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

/** The stamping rounds of one platform instance (`start`, `stop`, `round`: core/rounds.ts). */
export class LedgerTimestamping extends Rounds {
  private readonly db: Kysely<Database>;
  private readonly heads: TreeHeads;
  private readonly tsa: TsaTarget;
  constructor(db: Kysely<Database>, heads: TreeHeads, tsa: TsaTarget, log: FastifyBaseLogger) {
    super(() => this.stamp(), log, 'checkpoint time stamp failed');
    this.db = db;
    this.heads = heads;
    this.tsa = tsa;
  }

  private async stamp(): Promise<void> {
    const sth = await this.heads.current();
    if (!sth.checkpoint || sth.treeSize === 0) return;
    const last = await this.db
      .selectFrom('ledger_timestamps')
      .select('tree_size')
      .orderBy('tree_size', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last && Number(last.tree_size) >= sth.treeSize) return;
    const data = u8(Buffer.from(sth.checkpoint, 'utf8'));
    const nonce = u8(randomBytes(16));
    const res = await fetch(this.tsa.url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: await timestampRequest(data, nonce),
      signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
    });
    const reply = u8(Buffer.from(await res.arrayBuffer()));
    if (!res.ok || reply.length > MAX_REPLY_BYTES) throw new Error(`the TSA answered HTTP ${res.status}`);
    const trusted = this.tsa.trustedPem ? certificatesOfPem(this.tsa.trustedPem) : [];
    const read = await readTimestampReply(reply, data, nonce, trusted);
    if (!read.ok) throw new Error(`unusable time-stamp reply: ${read.reason}`);
    await this.db
      .insertInto('ledger_timestamps')
      .values({
        tree_size: sth.treeSize,
        root_hash: sth.rootHash,
        note: sth.checkpoint,
        token: Buffer.from(read.token).toString('base64'),
        gen_time: Math.floor(read.genTime.getTime() / 1000),
        tsa: read.tsa.slice(0, 200),
        created_at: nowSeconds(),
      })
      .onConflict((oc) => oc.column('tree_size').doNothing())
      .execute();
  }
}
