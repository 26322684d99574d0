/**
 * Signed tree heads (docs/decisions/005-ledger.md; RFC 9162 §4.10 in spirit, with the contract's own signing
 * input): the ledger's Ed25519 key pair, generated on first start at `${dataDir}/keys/ledger-ed25519.pem`
 * (PKCS#8 PEM, mode 0600, directory 0700; never in the repository; several platform instances must share the
 * file), and the signer of `sthSigningInput(...)`. {@link TreeHeads} answers the STH of the current tree,
 * re-signing only when the size changed.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { type LedgerPublicKey, type SignedTreeHead, sthSigningInput } from '../../contract/ledger.ts';
import type { Database } from '../db/schema.ts';
import { readOrCreateKeyFile } from '../core/key-file.ts';
import { rootHash, treeSize } from './ledger.ts';
import { publicKeyId } from './verify.ts';
import { checkpointText, verifierKey } from '../../contract/signed-note.ts';
import { rawEd25519, signNote } from '../../contract/note-signing.ts';

/** The origin of a ledger whose deployment names none (LEDGER_ORIGIN): checkpoints' first line and key name. */
export const DEFAULT_LEDGER_ORIGIN = 'cunzheng.local/ledger';

/** File name of the ledger key under `${dataDir}/keys/`. */
export const LEDGER_KEY_FILE = 'ledger-ed25519.pem';

/**
 * The key as published (`GET /api/ledger/publicKey`, `POST /api/check/packageKey`): the ledger key with the verifier
 * keys of the configured witnesses (LEDGER_WITNESSES) and the TSA's certificates (TSA_CERT_FILE), what a verifier of
 * a package needs besides the package (decision 035).
 */
export function publishedLedgerKey(
  key: LedgerPublicKey,
  config: { ledgerWitnesses: readonly { key: string }[]; tsa: { trustedPem: string | null } | null },
): LedgerPublicKey {
  return {
    ...key,
    ...(config.ledgerWitnesses.length > 0 ? { witnesses: config.ledgerWitnesses.map((w) => w.key) } : {}),
    ...(config.tsa?.trustedPem ? { tsaCertificates: config.tsa.trustedPem } : {}),
  };
}

/** Holds the ledger's Ed25519 private key; create it with {@link LedgerSigner.open}. */
export class LedgerSigner {
  /** The public key as the contract publishes it (`GET /api/ledger/publicKey`). */
  readonly publicKey: LedgerPublicKey;
  private readonly privateKey: KeyObject;
  readonly origin: string;

  private constructor(
    privateKey: KeyObject,
    /** The log's origin, the first line of its checkpoints and their key name (c2sp.org/tlog-checkpoint). */
    origin: string,
  ) {
    this.privateKey = privateKey;
    this.origin = origin;
    const pub = createPublicKey(privateKey);
    this.publicKey = {
      algorithm: 'Ed25519',
      keyId: publicKeyId(rawEd25519(pub)),
      pem: pub.export({ type: 'spki', format: 'pem' }).toString(),
      noteKey: verifierKey(origin, rawEd25519(pub)),
    };
  }

  /**
   * Loads the key from `${dataDir}/keys/ledger-ed25519.pem`, generating it when absent. The new key is written to a
   * temp file and hard-linked into place, so two instances starting together end up with the same key and nobody
   * reads a half-written file.
   * @throws when the file exists but is not an Ed25519 private key PEM, or the directory is not writable
   */
  static async open(dataDir: string, origin = DEFAULT_LEDGER_ORIGIN): Promise<LedgerSigner> {
    const file = path.join(dataDir, 'keys', LEDGER_KEY_FILE);
    const pem = await readOrCreateKeyFile(file, () =>
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    let key: KeyObject;
    try {
      key = createPrivateKey(pem);
    } catch (err) {
      throw new Error(`${file} is not a private key PEM`, { cause: err });
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 key`);
    return new LedgerSigner(key, origin);
  }

  /**
   * Signs the head of the tree of `treeSize` leaves with root `rootHash` (hex) at `timestamp` (ms since the epoch).
   * @returns the contract SignedTreeHead, signature base64 over the UTF-8 bytes of `sthSigningInput`, with the same
   *   head as a signed C2SP checkpoint of the log's origin
   */
  sign(size: number, root: string, timestamp: number): SignedTreeHead {
    const head = { treeSize: size, rootHash: root, timestamp };
    const signature = sign(null, Buffer.from(sthSigningInput(head), 'utf8'), this.privateKey).toString(
      'base64',
    );
    const text = checkpointText({ origin: this.origin, treeSize: size, rootHash: root, extensions: [] });
    const checkpoint = signNote(text, this.origin, this.privateKey);
    return { ...head, keyId: this.publicKey.keyId, signature, checkpoint };
  }
}

/** The signed tree head of the current tree, cached per process until the tree grows. */
export class TreeHeads {
  private latest: SignedTreeHead | null = null;
  private readonly db: Kysely<Database>;
  readonly signer: LedgerSigner;
  private readonly clock: () => number;

  constructor(db: Kysely<Database>, signer: LedgerSigner, clock: () => number = Date.now) {
    this.db = db;
    this.signer = signer;
    this.clock = clock;
  }

  /**
   * The STH of the tree as committed now: the cached one when the size is unchanged, else a freshly signed one
   * (timestamp = now, ms). Two reads: the size, and on change the O(log n) nodes of the root.
   */
  async current(): Promise<SignedTreeHead> {
    const size = await treeSize(this.db);
    const cached = this.latest;
    if (cached && cached.treeSize === size) return cached;
    const sth = this.signer.sign(size, await rootHash(this.db, size), this.clock());
    if (!this.latest || this.latest.treeSize < size) this.latest = sth;
    return sth;
  }
}
