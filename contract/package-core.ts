/**
 * The checks of an evidence package (docs/decisions/005-ledger.md, 035), over any reader of the package's ZIP
 * entries: `npm run verify -- <package.zip> [--key <pem>]` and the gateway's /verify upload read it with yauzl
 * (contract/package-verify.ts), the /verify page and the saved offline verifier in the browser with zip.js
 * (app/verify/package-browser.ts), so every one of them runs these same steps. The package is the gateway's ZIP:
 * `proof.json` (contract ProofBundle), `certificate.pdf`, and `evidence/<name>` (the original, or the user data as
 * CSV) unless `fileName` is null; a batch ZIP holds one such set per `<baoquan>/` folder and each is checked. Seven
 * steps, each pass / fail / skip with a one-line reason:
 *   1. proof.json parses and is version 1 with every field of the contract;
 *   2. the original's SHA-256 (streamed, never held in memory) equals `record.sha256` (skipped without an original:
 *      hash evidence, or data its owner deleted);
 *   3. `recordCanonical` is the canonical JSON of `record`, it names the package's evidence, and
 *      `leafHash(recordCanonical)` (RFC 9162 §2.1.1) equals `leafHash`;
 *   4. the inclusion proof takes that leaf hash to `sth.rootHash` (RFC 9162 §2.1.3.2);
 *   5. the STH is signed by `publicKey.pem` and its keyId is that key's; with `--key`, the given key must be the
 *      bundled one;
 *   6. witnesses (decision 035): the cosigned checkpoint `witnessed`, when the package has one, is a checkpoint note
 *      signed by the ledger's key (its note verifier key `publicKey.noteKey`), the leaf's proof in it leads to its
 *      root, and the cosignatures of the witnesses given with `--witness <verifier key>` verify (a line of a given
 *      witness that fails, or none of them cosigning, fails the step; without `--witness` the names on the lines are
 *      reported as not checked). Skipped when no witness had cosigned a tree holding the leaf yet;
 *   7. time stamp (decision 035): the stamped checkpoint `timestamp`, when the package has one, is signed by the
 *      ledger's key and holds the leaf, and its RFC 3161 token is over that note (SHA-256 imprint), signed by a
 *      time-stamping certificate that chains to the certificates given with `--tsa-cert` (without it, the token is
 *      checked against the certificate it carries and the detail says so). Skipped when none was stamped yet.
 * Needs nothing but the entries: no network, no database; runs in Node and in browsers.
 */
import type { ProofBundle } from './ledger.ts';
import { canonicalJson } from './canonical-json.ts';
import { checkSth, isHash, leafHash, publicKeyId, verifyInclusion } from './ledger-verify.ts';
import { timestampStep, witnessStep } from './package-checkpoints.ts';

/** Largest proof.json read (bytes); a real one is a few kilobytes. */
const MAX_PROOF_JSON_BYTES = 1024 * 1024;

/** The seven steps, numbered as printed. */
export const STEPS = {
  1: 'proof.json',
  2: 'original file',
  3: 'ledger record',
  4: 'inclusion proof',
  5: 'tree-head signature',
  6: 'witnesses',
  7: 'time stamp',
} as const;
/** A step number, 1–7. */
export type StepNumber = keyof typeof STEPS;

/** One step's outcome. */
export interface StepResult {
  step: StepNumber;
  name: (typeof STEPS)[StepNumber];
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}

/** The outcome for one package (one `proof.json`) of the ZIP. */
export interface PackageReport {
  /** Folder of the package inside the ZIP ('' for a single package, `<baoquan>/` in a batch). */
  prefix: string;
  baoquan: string | null;
  ok: boolean;
  steps: StepResult[];
  /** The first failing step, or null. */
  failed: StepResult | null;
}

/** Options of {@link verifyPackage}. */
export interface VerifyOptions {
  /** An Ed25519 SPKI PEM the STH must be signed with (it must also be the bundled key). */
  keyPem?: string | undefined;
  /** Witness verifier keys (c2sp.org/tlog-cosignature) whose cosignatures are checked and reported. */
  witnessKeys?: readonly string[] | undefined;
  /** PEM certificates an RFC 3161 token's TSA certificate must chain to. */
  tsaCertsPem?: string | undefined;
}

/**
 * The entries of an opened package ZIP, however it is read (a file on disk, a File in the page).
 * `read` answers an entry's bytes and throws when it is larger than `limit` bytes or unreadable; `hash` answers its
 * SHA-256 (hex) and size in bytes, streamed (an original may be gigabytes), and throws when it is unreadable.
 */
export interface PackageReader {
  /** The names of the ZIP's files (folders left out). */
  names: ReadonlySet<string>;
  read(name: string, limit: number): Promise<Uint8Array>;
  hash(name: string): Promise<{ sha256: string; bytes: number }>;
}

/** The gateway's entry-name rule (control characters and path separators become `_`). */
function safeEntryName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** The field of a parsed proof.json that is missing or of the wrong type, or null when the shape is right. */
function shapeProblem(b: Record<string, unknown>): string | null {
  const str = (v: unknown) => typeof v === 'string';
  const int = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const obj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (b.version !== 1) return `version is ${JSON.stringify(b.version)}, not 1`;
  if (!str(b.baoquan)) return 'baoquan';
  if (!(b.fileName === null || str(b.fileName))) return 'fileName';
  if (!int(b.leafIndex)) return 'leafIndex';
  if (!str(b.leafHash)) return 'leafHash';
  if (!obj(b.record)) return 'record';
  if (!str(b.recordCanonical)) return 'recordCanonical';
  if (!Array.isArray(b.inclusionProof) || !b.inclusionProof.every(str)) return 'inclusionProof';
  if (!obj(b.sth)) return 'sth';
  if (!obj(b.publicKey) || !str(b.publicKey.pem) || !str(b.publicKey.keyId)) return 'publicKey';
  return null;
}

const short = (h: string) => `${h.slice(0, 16)}…`;

/**
 * Verifies one package of an open ZIP (its files under `prefix`).
 * @returns the five steps; never throws for a bad package (a failure is a failed step)
 */
async function verifyOne(z: PackageReader, prefix: string, opts: VerifyOptions): Promise<PackageReport> {
  const steps: StepResult[] = [];
  const add = (step: StepNumber, status: StepResult['status'], detail: string) =>
    steps.push({ step, name: STEPS[step], status, detail });
  const report = (baoquan: string | null): PackageReport => {
    const failed = steps.find((s) => s.status === 'fail') ?? null;
    return { prefix, baoquan, ok: failed === null, steps, failed };
  };

  // 1) proof.json
  let b: ProofBundle;
  try {
    if (!z.names.has(`${prefix}proof.json`)) throw new Error(`${prefix}proof.json is not in the package`);
    const parsed: unknown = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(
        await z.read(`${prefix}proof.json`, MAX_PROOF_JSON_BYTES),
      ),
    );
    if (typeof parsed !== 'object' || parsed === null) throw new Error('proof.json is not a JSON object');
    const problem = shapeProblem(parsed as Record<string, unknown>);
    if (problem)
      throw new Error(problem.includes(' ') ? problem : `field ${problem} is missing or malformed`);
    b = parsed as ProofBundle;
  } catch (err) {
    add(1, 'fail', (err as Error).message);
    for (const s of [2, 3, 4, 5, 6, 7] as const) add(s, 'skip', 'not checked (no usable proof.json)');
    return report(null);
  }
  add(
    1,
    'pass',
    `version 1, evidence ${b.baoquan}, leaf ${b.leafIndex} of a tree of ${b.sth.treeSize} (proof.json parses)`,
  );

  // 2) the original
  if (b.fileName === null) {
    add(
      2,
      'skip',
      'no original in the package (hash evidence, or data deleted by its owner): SHA-256 not checked',
    );
  } else {
    const candidates = [`${prefix}evidence/${b.fileName}`, `${prefix}evidence/${safeEntryName(b.fileName)}`];
    const name = candidates.find((c) => z.names.has(c));
    if (!name) {
      add(2, 'fail', `evidence/${b.fileName} is not in the package`);
    } else {
      try {
        const { sha256, bytes } = await z.hash(name);
        const expected = String(b.record.sha256).toLowerCase();
        if (sha256 === expected) {
          add(
            2,
            'pass',
            `${name.slice(prefix.length)}: SHA-256 ${sha256} (${bytes} bytes) equals record.sha256`,
          );
        } else {
          add(2, 'fail', `${name.slice(prefix.length)}: SHA-256 is ${sha256}, the record says ${expected}`);
        }
      } catch (err) {
        add(2, 'fail', `${name.slice(prefix.length)} cannot be read: ${(err as Error).message}`);
      }
    }
  }

  // 3) the record and its leaf hash
  const computedLeaf = leafHash(b.recordCanonical);
  if (canonicalJson(b.record) !== b.recordCanonical) {
    add(3, 'fail', 'recordCanonical is not the canonical JSON of record');
  } else if (b.record.baoquan !== b.baoquan) {
    add(3, 'fail', `the record is of ${String(b.record.baoquan)}, not ${b.baoquan}`);
  } else if (computedLeaf !== b.leafHash) {
    add(3, 'fail', `leafHash(recordCanonical) is ${computedLeaf}, proof.json says ${b.leafHash}`);
  } else {
    add(
      3,
      'pass',
      `recordCanonical is the canonical record; its leaf hash ${computedLeaf} is leafHash (chainhash)`,
    );
  }

  // 4) inclusion
  const { sth } = b;
  if (verifyInclusion(computedLeaf, b.leafIndex, sth.treeSize, b.inclusionProof, sth.rootHash)) {
    add(
      4,
      'pass',
      `${b.inclusionProof.length} proof hash${b.inclusionProof.length === 1 ? '' : 'es'} lead from leaf ${b.leafIndex} to root ${short(sth.rootHash)} of tree size ${sth.treeSize}`,
    );
  } else {
    const bad = b.inclusionProof.findIndex((h) => !isHash(h));
    add(
      4,
      'fail',
      bad >= 0
        ? `inclusionProof[${bad}] is not 64 lower-case hex`
        : `the inclusion proof of leaf ${b.leafIndex} does not lead to root ${short(String(sth.rootHash))} of tree size ${sth.treeSize}`,
    );
  }

  // 5) the signed tree head
  let keyPem = b.publicKey.pem;
  let keyNote = 'the bundled public key';
  let keyProblem: string | null = null;
  try {
    if (publicKeyId(b.publicKey.pem) !== b.publicKey.keyId)
      keyProblem = 'publicKey.keyId is not the id of publicKey.pem';
    if (opts.keyPem !== undefined) {
      if (publicKeyId(opts.keyPem) !== publicKeyId(b.publicKey.pem)) {
        keyProblem = 'the bundled public key is not the key given with --key';
      }
      keyPem = opts.keyPem;
      keyNote = 'the key given with --key';
    }
  } catch (err) {
    keyProblem = `public key unusable: ${(err as Error).message}`;
  }
  const sthCheck = keyProblem ? { ok: false as const, reason: keyProblem } : checkSth(sth, keyPem);
  if (sthCheck.ok) {
    add(
      5,
      'pass',
      `Ed25519 signature over tree size ${sth.treeSize} (${new Date(sth.timestamp).toISOString()}) verifies with ${keyNote}, keyId ${short(sthCheck.keyId)}`,
    );
  } else {
    add(5, 'fail', sthCheck.reason);
  }

  // 6) witnesses
  const w = witnessStep(b, computedLeaf, opts.witnessKeys ?? []);
  add(6, w.status, w.detail);

  // 7) time stamp
  const t = await timestampStep(b, computedLeaf, opts.tsaCertsPem);
  add(7, t.status, t.detail);
  return report(b.baoquan);
}

/**
 * Verifies every package of an opened ZIP: the root one (`proof.json`), or in a batch ZIP each `<folder>/`.
 * @returns one report per package; a ZIP without any proof.json gives one report failing step 1
 */
export async function verifyPackageEntries(
  z: PackageReader,
  opts: VerifyOptions = {},
): Promise<PackageReport[]> {
  const prefixes = z.names.has('proof.json')
    ? ['']
    : [...z.names]
        .filter((n) => /^[^/]+\/proof\.json$/.test(n))
        .map((n) => n.slice(0, -'proof.json'.length))
        .sort();
  const reports: PackageReport[] = [];
  for (const prefix of prefixes.length ? prefixes : ['']) reports.push(await verifyOne(z, prefix, opts));
  return reports;
}
