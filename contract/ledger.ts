/**
 * Ledger calls and the evidence package's proof file (decision 005; ARCHITECTURE "Evidence, ledger, certificates").
 * The ledger is an append-only Merkle log in the style of RFC 9162 (Certificate Transparency v2): leaf hash =
 * SHA-256(0x00 ‖ leaf input), node hash = SHA-256(0x01 ‖ left ‖ right), where the leaf input is the UTF-8 canonical
 * JSON of the evidence record. Signed tree heads are Ed25519 signatures. Hashes are lower-case hex.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';

export const LedgerPaths = {
  /** `GET` → SignedTreeHead (the newest). */
  sth: '/api/ledger/sth',
  /** `GET` → LedgerPublicKey. */
  publicKey: '/api/ledger/publicKey',
  /** `GET` → the newest checkpoint, a C2SP signed note (text/plain; decision 035). */
  checkpoint: '/api/ledger/checkpoint',
  /**
   * `GET ?hash=<leaf hash>[&baoquan=]` → LedgerEntryView (public: the explorer page /chain/tx/{hash}); the record
   * itself only with its preservation number (decision 035).
   */
  entry: '/api/ledger/entry',
  /** `GET ?baoquan=` → ProofBundle (public: anyone with the number may verify; no file bytes in it). */
  proof: '/api/ledger/proof',
  /** `GET ?first=&second=` (tree sizes) → ConsistencyProofData. */
  consistency: '/api/ledger/consistency',
  /**
   * `GET <tile>/<path>` → a C2SP tlog-tiles resource (platform/ledger/tiles.ts): `tile/<L>/<N>[.p/<W>]` hashes,
   * `tile/entries/<N>[.p/<W>]` entry bundles (only where LEDGER_PUBLIC_ENTRIES=1); `application/octet-stream`,
   * immutable; 404 for a tile that does not exist (yet) or a path that is not one.
   */
  tile: '/api/ledger/tile',
} as const;

/** Messages of the ledger calls (ours: the spec has no ledger). */
export const LedgerMsg = {
  entryNotFound: '账本记录不存在',
  badTreeSize: '树大小无效',
} as const;

/**
 * `GET /api/ledger/entry?hash=&baoquan=`: `hash` any string (a malformed hash simply finds nothing); `baoquan` the
 * preservation number of the entry's evidence, which opens its record (a wrong or missing one shows no record).
 */
export const LedgerEntryQuery = z.object({
  hash: z.string().max(128).default(''),
  baoquan: z.string().max(64).optional(),
});
/** `GET /api/ledger/proof?baoquan=`. */
export const LedgerProofQuery = z.object({
  baoquan: z.string().min(1, Msg.badRequest).max(64, Msg.badRequest),
});
const treeSize = z.coerce
  .number({ message: LedgerMsg.badTreeSize })
  .int(LedgerMsg.badTreeSize)
  .min(0, LedgerMsg.badTreeSize);
/** `GET /api/ledger/consistency?first=&second=`: tree sizes (the platform checks first ≤ second ≤ its size). */
export const ConsistencyQuery = z.object({ first: treeSize, second: treeSize });

/** A signed tree head. `timestamp` in milliseconds since the epoch; `signature` base64 Ed25519 over
 * the UTF-8 bytes of `sthSigningInput(sth)`. */
export interface SignedTreeHead {
  treeSize: number;
  rootHash: string;
  timestamp: number;
  keyId: string;
  signature: string;
  /**
   * The same head as a C2SP checkpoint (c2sp.org/tlog-checkpoint: origin, size, base64 root) signed as a C2SP note by
   * the same key (contract/signed-note.ts; decision 035). Absent in packages issued before checkpoints.
   */
  checkpoint?: string;
}

export { sthSigningInput } from './ledger-sth.ts';

/** The ledger's public key. `keyId` = hex SHA-256 of the raw 32-byte public key. */
export interface LedgerPublicKey {
  algorithm: 'Ed25519';
  keyId: string;
  /** SPKI PEM. */
  pem: string;
  /**
   * The note verifier key `<origin>+<key ID>+<key>` (c2sp.org/signed-note) checkpoints verify with (decision 035).
   */
  noteKey?: string;
  /**
   * The verifier keys (c2sp.org/tlog-cosignature) of the witnesses this ledger asks to cosign its checkpoints; the
   * /verify page checks a package's cosignatures against them (decision 035). Absent from `GET /api/ledger/publicKey`
   * of deployments without witnesses.
   */
  witnesses?: string[];
  /** The PEM certificates of the Time-Stamp Authority checkpoints are stamped by (TSA_CERT_FILE), when configured. */
  tsaCertificates?: string;
}

/** What the ledger commits to for one evidence (the leaf input is its canonical JSON). Sizes in bytes, times in
 * unix seconds; `kind` file | hash | property | app; `ownerRef` a hash, never personal data. */
export interface LedgerRecord {
  baoquan: string;
  sha256: string;
  size: number;
  fileType: number;
  ownerRef: string;
  savedAt: number;
  kind?: string;
}

/** One ledger entry as the explorer shows it. */
export interface LedgerEntryView {
  leafIndex: number;
  leafHash: string;
  /**
   * The record, and below the canonical JSON the leaf hash covers: only for a caller who names the record's
   * preservation number (the certificate's link does), or everywhere with LEDGER_PUBLIC_ENTRIES=1; null otherwise.
   * The hash tiles make every leaf hash public, and a record names its evidence's preservation number, which opens
   * the certificate (docs/decisions/035, "Records by leaf hash").
   */
  record: LedgerRecord | null;
  recordCanonical: string | null;
  inclusionProof: string[];
  sth: SignedTreeHead;
}

export interface ConsistencyProofData {
  first: number;
  second: number;
  proof: string[];
}

/**
 * `proof.json` of an evidence package, also `GET /api/ledger/proof?baoquan=`. With it, the original file and the
 * public key, anyone can check offline that the file was recorded (`npm run verify -- package.zip`).
 */
export interface ProofBundle {
  version: 1;
  baoquan: string;
  /** Name of the original inside the package (`evidence/<name>`), or null for hash evidence (no bytes held). */
  fileName: string | null;
  leafIndex: number;
  leafHash: string;
  record: LedgerRecord;
  recordCanonical: string;
  inclusionProof: string[];
  sth: SignedTreeHead;
  publicKey: LedgerPublicKey;
  /**
   * The newest checkpoint witnesses cosigned that holds the leaf (decision 035), when there is one: the note
   * (our checkpoint signature, then each witness's cosignature line) and the leaf's inclusion proof in its tree.
   */
  witnessed?: WitnessedCheckpoint;
  /**
   * The newest checkpoint an RFC 3161 Time-Stamp Authority stamped that holds the leaf (decision 035), when there
   * is one: the signed note as stamped, the token, and the leaf's inclusion proof in that tree.
   */
  timestamp?: StampedCheckpoint;
}

/** A checkpoint with its RFC 3161 token (ProofBundle.timestamp). */
export interface StampedCheckpoint {
  /** The signed checkpoint note; the token's message imprint is SHA-256 of its UTF-8 bytes. */
  note: string;
  /** The DER TimeStampToken, base64 (`openssl ts -verify -in token.der -token_in -data note.txt -CAfile …`). */
  token: string;
  treeSize: number;
  inclusionProof: string[];
}

/** A cosigned checkpoint and a leaf's proof in it (ProofBundle.witnessed). */
export interface WitnessedCheckpoint {
  /** The checkpoint note with the log's signature and the witnesses' cosignature lines (c2sp.org/tlog-cosignature). */
  note: string;
  treeSize: number;
  inclusionProof: string[];
}

/** The console's ledger calls (role admin; decision 035). */
export const LedgerOpsPaths = {
  /** `GET` → {@link LedgerWitnessesData}. */
  witnesses: '/api/ops/ledger/witnesses',
} as const;

/** One configured witness as the console shows it. Times unix seconds. */
export interface LedgerWitnessView {
  name: string;
  url: string;
  /** The tree size it last cosigned (0: never). */
  size: number;
  cosignedAt: number | null;
  /** `new` (not asked yet) | `ok` | `refused` (it refused our checkpoint) | `unreachable`. */
  status: 'new' | 'ok' | 'refused' | 'unreachable';
  /** Why, for `refused` and `unreachable`. */
  detail: string;
  attemptedAt: number | null;
}

/** A refusal or change of state of a witness. */
export interface LedgerWitnessEvent {
  id: number;
  witness: string;
  at: number;
  status: LedgerWitnessView['status'];
  treeSize: number;
  detail: string;
}

export interface LedgerWitnessesData {
  /** The ledger's current tree size. */
  treeSize: number;
  witnesses: LedgerWitnessView[];
  /** The newest 50 events. */
  events: LedgerWitnessEvent[];
}
