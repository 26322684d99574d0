/**
 * The evidence package check in the browser (decision 036): the ZIP the user picks is read where it
 * is, with zip.js (random access through the central directory, so a stored original that itself holds ZIP
 * signatures is read right, and only the entries the checks need are inflated), and checked with the same seven steps
 * as `npm run verify` and the upload path (contract/package-core.ts) against the keys the page shows. Nothing is
 * sent anywhere. Loaded on demand by /verify and inlined into the saved offline verifier (app/verify/offline/).
 *
 * Needs WebCrypto's `crypto.subtle` (RSA/ECDSA of the RFC 3161 token; a secure context: HTTPS, localhost or a file
 * opened from disk); without it {@link canCheckHere} is false and /verify uploads the package instead.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  BlobReader,
  configure,
  Uint8ArrayWriter,
  ZipReader,
  type Entry,
  type FileEntry,
} from '@zip.js/zip.js/lib/zip-core-native.js';
import type { LedgerPublicKey } from '../../contract/ledger.ts';
import { verifyPackageEntries, type PackageReader } from '../../contract/package-core.ts';
import { packageVerdict, type PackageVerdict } from './package-steps.ts';

// no workers (a page's CSP forbids blob: workers, and a saved file has no worker script to load): inflate in the page
configure({ useWebWorkers: false });

/** True where the check can run in this browser (WebCrypto in a secure context, Blob streams). */
export function canCheckHere(): boolean {
  return (
    typeof globalThis.crypto?.subtle?.verify === 'function' &&
    typeof WritableStream === 'function' &&
    typeof Blob === 'function' &&
    typeof Blob.prototype.slice === 'function'
  );
}

const isFile = (e: Entry): e is FileEntry => !e.directory;

/** The {@link PackageReader} of the opened ZIP's file entries. */
function readerOf(files: Map<string, FileEntry>): PackageReader {
  const entry = (name: string) => {
    const e = files.get(name);
    if (!e) throw new Error(`${name} is not in the package`);
    return e;
  };
  return {
    names: new Set(files.keys()),
    async read(name, limit) {
      const e = entry(name);
      if (e.uncompressedSize > limit) throw new Error(`${name} is larger than ${limit} bytes`);
      return e.getData(new Uint8ArrayWriter());
    },
    async hash(name) {
      const h = sha256.create();
      let bytes = 0;
      await entry(name).getData(
        new WritableStream<Uint8Array>({
          write(chunk) {
            bytes += chunk.length;
            h.update(chunk);
          },
        }),
      );
      return { sha256: bytesToHex(h.digest()), bytes };
    },
  };
}

/**
 * Checks the package ZIP `file` against the published key `key` (its witnesses and TSA certificates included).
 * @returns the verdict of its first package (a single package's ZIP holds one), or an error when the file is not a
 * readable ZIP or holds no package; never throws
 */
export async function checkPackageFile(file: Blob, key: LedgerPublicKey): Promise<PackageVerdict> {
  const zip = new ZipReader(new BlobReader(file));
  try {
    return await packageVerdict(key, async (opts) => {
      const files = new Map((await zip.getEntries()).filter(isFile).map((e) => [e.filename, e]));
      return verifyPackageEntries(readerOf(files), opts);
    });
  } finally {
    await zip.close().catch(() => undefined);
  }
}
