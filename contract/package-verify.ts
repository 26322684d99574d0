/**
 * Offline verification of an evidence package ZIP on disk (`npm run verify -- <package.zip> [--key <pem>]`, and the
 * gateway's /verify upload path): opens it with yauzl and runs the checks of contract/package-core.ts, the same the
 * /verify page runs in the browser. Entries are read on demand; an original is hashed streamed, never held in memory.
 * Needs nothing but the ZIP (and Node): no network, no database.
 */
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  verifyPackageEntries,
  type PackageReader,
  type PackageReport,
  type VerifyOptions,
} from './package-core.ts';

export {
  STEPS,
  type PackageReport,
  type StepNumber,
  type StepResult,
  type VerifyOptions,
} from './package-core.ts';

/** A ZIP file opened for random access: its entries by name. */
interface OpenZip {
  zip: ZipFile;
  entries: Map<string, Entry>;
}
function openZip(file: string): Promise<OpenZip> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, Entry>();
      zip.on('entry', (entry: Entry) => {
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve({ zip, entries }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function entryStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
  );
}

async function readEntry(zip: ZipFile, entry: Entry, limit: number): Promise<Buffer> {
  if (entry.uncompressedSize > limit) throw new Error(`${entry.fileName} is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  for await (const chunk of await entryStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** SHA-256 hex of an entry, streamed. @returns the hash and the number of bytes hashed */
async function hashEntry(zip: ZipFile, entry: Entry): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(await entryStream(zip, entry), async function* (source) {
    for await (const chunk of source) {
      bytes += (chunk as Buffer).length;
      hash.update(chunk as Buffer);
    }
    yield* [];
  });
  return { sha256: hash.digest('hex'), bytes };
}

/** The {@link PackageReader} of an open ZIP. */
function readerOf(z: OpenZip): PackageReader {
  const entry = (name: string) => {
    const e = z.entries.get(name);
    if (!e) throw new Error(`${name} is not in the package`);
    return e;
  };
  return {
    names: new Set(z.entries.keys()),
    read: (name, limit) => readEntry(z.zip, entry(name), limit),
    hash: (name) => hashEntry(z.zip, entry(name)),
  };
}

/**
 * Verifies every package in the ZIP at `file`: the root one (`proof.json`), or in a batch ZIP each `<folder>/`.
 * @returns one report per package; a ZIP without any proof.json gives one report failing step 1
 * @throws only when the file cannot be opened as a ZIP
 */
export async function verifyPackage(file: string, opts: VerifyOptions = {}): Promise<PackageReport[]> {
  const z = await openZip(file);
  try {
    return await verifyPackageEntries(readerOf(z), opts);
  } finally {
    z.zip.close();
  }
}
