/**
 * A transparency-log witness (decision 035; c2sp.org/tlog-witness `add-checkpoint`, c2sp.org/tlog-cosignature):
 * for each log it is configured with (an origin and the log's note verifier keys) it keeps the latest checkpoint it
 * cosigned, and cosigns a new one only when it is consistent with that: same size and same root, or a larger size with
 * a valid RFC 6962 consistency proof. A log that shows it two different trees of one size (a fork: history rewritten)
 * is refused with 422 and the conflicting checkpoint is kept in `refusals.jsonl`.
 *
 * Request body (text): `old <size>\n`, at most 63 base64 proof hashes one per line, an empty line, the signed
 * checkpoint note. Answers (status, `Content-Type`, body):
 *   200 text/plain: the cosignature line (`— <name> base64(key ID ‖ u64 time ‖ Ed25519 signature)\n`);
 *   400: a malformed body, or old size above the checkpoint's size;
 *   403: no verifying signature of the log's key, or a signature of its key that fails;
 *   404: an origin the witness does not know;
 *   409 text/x.tlog.size: `<size of the latest cosigned checkpoint>\n` when old size is not that size;
 *   422: size 0 with another root than the empty tree's, a proof with old size 0, an old-size tree with another root
 *        than the one cosigned (a fork), or a consistency proof that does not verify.
 * The check and the update of the state are one step (requests are handled one at a time), and the state is written
 * (temp file, fsync, rename) before the answer, as the protocol requires.
 *
 * State directory: `witness-ed25519.pem` (PKCS#8, 0600; generated on first start), `state.json`
 * (`{origin: {size, rootHash, note}}`), `refusals.jsonl`.
 */
import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { cosignerVerifierKey } from '../contract/cosignature.ts';
import { cosign, rawEd25519 } from '../contract/note-signing.ts';
import { EMPTY_ROOT, verifyConsistency } from '../contract/ledger-verify.ts';
import { checkpointText, openCheckpoint, splitNote, type NoteVerifier } from '../contract/signed-note.ts';

/** Most consistency proof lines a request may carry (tlog-witness). */
const MAX_PROOF_LINES = 63;

/** What the witness remembers of one log: the latest checkpoint it cosigned. */
export interface LogState {
  size: number;
  /** 64 lower-case hex. */
  rootHash: string;
  /** The note as the log sent it. */
  note: string;
}

/** An answer of {@link Witness.addCheckpoint}. */
export interface WitnessAnswer {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

const text = (status: WitnessAnswer['status'], body: string): WitnessAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: `${body}\n`,
});

/** The parsed request body of add-checkpoint. @returns null when it is malformed */
export function parseAddCheckpoint(body: string): { oldSize: number; proof: string[]; note: string } | null {
  const split = body.indexOf('\n\n');
  if (split < 0) return null;
  const [oldLine, ...proofLines] = body.slice(0, split).split('\n');
  const m = /^old (0|[1-9]\d{0,15})$/.exec(oldLine ?? '');
  if (!m || proofLines.length > MAX_PROOF_LINES) return null;
  const proof: string[] = [];
  for (const line of proofLines) {
    const bytes = Buffer.from(line, 'base64');
    if (bytes.length !== 32 || bytes.toString('base64') !== line) return null;
    proof.push(bytes.toString('hex'));
  }
  return { oldSize: Number(m[1]), proof, note: body.slice(split + 2) };
}

/** A witness over its state directory. */
export class Witness {
  private state: Record<string, LogState>;
  private queue: Promise<unknown> = Promise.resolve();
  readonly name: string;
  private readonly key: KeyObject;
  private readonly logs: ReadonlyMap<string, readonly NoteVerifier[]>;
  private readonly dir: string;
  private readonly now: () => number;

  private constructor(
    name: string,
    key: KeyObject,
    logs: ReadonlyMap<string, readonly NoteVerifier[]>,
    dir: string,
    state: Record<string, LogState>,
    now: () => number,
  ) {
    this.name = name;
    this.key = key;
    this.logs = logs;
    this.dir = dir;
    this.now = now;
    this.state = state;
  }

  /**
   * Opens the witness `name` over `dir` (created 0700), loading or generating its key and loading its state.
   * @param logs the note verifier keys of the logs it witnesses (their names are the logs' origins)
   * @param now POSIX seconds of cosignatures (tests pass a clock)
   * @throws when the directory, key or state cannot be read or written
   */
  static async open(
    dir: string,
    name: string,
    logs: readonly NoteVerifier[],
    now: () => number = () => Math.floor(Date.now() / 1000),
  ): Promise<Witness> {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const keyFile = path.join(dir, 'witness-ed25519.pem');
    let pem: string;
    try {
      pem = await fsp.readFile(keyFile, 'utf8');
    } catch {
      pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      await fsp.writeFile(keyFile, pem, { mode: 0o600, flag: 'wx' }).catch(async () => {
        pem = await fsp.readFile(keyFile, 'utf8');
      });
    }
    const byOrigin = new Map<string, NoteVerifier[]>();
    for (const v of logs) byOrigin.set(v.name, [...(byOrigin.get(v.name) ?? []), v]);
    const statePath = path.join(dir, 'state.json');
    const state = fs.existsSync(statePath)
      ? (JSON.parse(await fsp.readFile(statePath, 'utf8')) as Record<string, LogState>)
      : {};
    return new Witness(name, createPrivateKey(pem), byOrigin, dir, state, now);
  }

  /** The witness's verifier key (`<name>+<key ID>+base64(0x04 ‖ key)`), what a log or a verifier configures. */
  get verifierKey(): string {
    return cosignerVerifierKey(this.name, rawEd25519(createPublicKey(this.key)));
  }

  /** The latest checkpoint cosigned for `origin`, if any. */
  latest(origin: string): LogState | undefined {
    return this.state[origin];
  }

  /** Handles one add-checkpoint request body (see the module comment); requests run one at a time. */
  addCheckpoint(body: string): Promise<WitnessAnswer> {
    const run = this.queue.then(() => this.add(body));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async add(body: string): Promise<WitnessAnswer> {
    const request = parseAddCheckpoint(body);
    if (!request) return text(400, 'malformed add-checkpoint request');
    const origin = request.note.split('\n', 1)[0] ?? '';
    const keys = this.logs.get(origin);
    if (!keys || !splitNote(request.note)) return text(404, 'unknown log');
    const opened = openCheckpoint(request.note, origin, keys);
    if (!opened.ok) return text(403, opened.reason);
    const { treeSize, rootHash } = opened.checkpoint;
    if (request.oldSize > treeSize) return text(400, 'old size is larger than the checkpoint size');
    const known = this.state[origin] ?? { size: 0, rootHash: EMPTY_ROOT, note: '' };
    if (request.oldSize !== known.size) {
      return { status: 409, contentType: 'text/x.tlog.size', body: `${known.size}\n` };
    }
    const refuse = async (why: string) => {
      await fsp.appendFile(
        path.join(this.dir, 'refusals.jsonl'),
        `${JSON.stringify({ at: this.now(), origin, why, cosigned: known, submitted: request.note })}\n`,
      );
      return text(422, why);
    };
    if (treeSize === 0 && rootHash !== EMPTY_ROOT) return refuse('a tree of size 0 must have the empty root');
    if (request.oldSize === 0 && request.proof.length > 0) return refuse('no proof is needed from size 0');
    if (request.oldSize === treeSize && rootHash !== known.rootHash) {
      return refuse(`fork: a tree of size ${treeSize} with another root than the one cosigned`);
    }
    if (
      request.oldSize > 0 &&
      request.oldSize < treeSize &&
      !verifyConsistency(request.oldSize, treeSize, known.rootHash, rootHash, request.proof)
    ) {
      return refuse(
        `the tree of size ${treeSize} is not consistent with the one cosigned at ${request.oldSize}`,
      );
    }
    this.state = { ...this.state, [origin]: { size: treeSize, rootHash, note: request.note } };
    await this.persist();
    // openCheckpoint parsed the text strictly, so it is exactly the note's text
    return text(200, cosign(checkpointText(opened.checkpoint), this.name, this.key, this.now()).slice(0, -1));
  }

  /** Writes the state durably: a temp file, fsync, rename. */
  private async persist(): Promise<void> {
    const target = path.join(this.dir, 'state.json');
    const temp = `${target}.${process.pid}.tmp`;
    const fh = await fsp.open(temp, 'w', 0o600);
    try {
      await fh.writeFile(JSON.stringify(this.state));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(temp, target);
  }
}
