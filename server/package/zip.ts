/**
 * Writes evidence packages into a streaming ZIP (archiver): per evidence `proof.json` (the ledger proof, pretty
 * JSON), `certificate.pdf` (the cached certificate) and `evidence/<fileName>` (the original, streamed from the
 * upstream and stored without recompression). Entries are appended one at a time and each waits until archiver has
 * consumed it, so the original is only opened when its turn comes and memory stays constant whatever its size.
 */
import { once } from 'node:events';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { PackageGrant, PackageUpstream } from './upstream.ts';

/** What the ZIP writer needs: the upstream calls and the certificate PDF of an evidence (a file on disk). */
export interface PackageSources {
  upstream: PackageUpstream;
  certificate(baoquan: string): Promise<{ file: string }>;
}

/** One evidence ready to be written: its proof and certificate fetched; the original maybe already opened. */
export interface PreparedPackage {
  grant: PackageGrant;
  proofJson: Buffer;
  /** The certificate PDF's bytes (a few hundred KB; read whole so a cache refresh cannot pull the file away). */
  certificatePdf: Buffer;
  /** Entry name of the original (`evidence/<name>`), or null when the package holds no bytes. */
  originalEntry: string | null;
  /** The original, when it was opened ahead (a single package opens it before answering, to answer errors). */
  original: Readable | null;
}

/**
 * A file name as a single, harmless ZIP path segment: control characters, `/` and `\` become `_`; empty, `.` and
 * `..` become `file`. Names the platform issued pass unchanged.
 */
export function safeEntryName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/**
 * Fetches what an evidence's package needs before its entries are written: the ledger proof and the certificate
 * PDF (in parallel), and with `openOriginal` the original's stream too.
 *
 * @throws whatever the upstream calls or the renderer throw (UpstreamError, EvidenceNotFoundError, pool errors)
 */
export async function preparePackage(
  grant: PackageGrant,
  sources: PackageSources,
  signal: AbortSignal,
  openOriginal: boolean,
): Promise<PreparedPackage> {
  const [proof, certificate] = await Promise.all([
    sources.upstream.proof(grant.baoquan),
    sources.certificate(grant.baoquan),
  ]);
  // proof.json names the file the verifier looks for; the grant's name is the fallback of an older ledger.
  const name = grant.downUrl ? (proof.fileName ?? grant.fileName) : null;
  const original = name && openOriginal ? await sources.upstream.original(grant.downUrl!, signal) : null;
  return {
    grant,
    proofJson: Buffer.from(`${JSON.stringify(proof, null, 2)}\n`),
    certificatePdf: await fsp.readFile(certificate.file),
    originalEntry: name ? `evidence/${safeEntryName(name)}` : null,
    original,
  };
}

/** A ZIP archive for streaming: deflate by default (entries choose `store`), UTF-8 names. */
export function createZip(): ZipArchive {
  return new ZipArchive({ zlib: { level: 6 }, highWaterMark: 1024 * 1024 });
}

/** Appends one entry and resolves when archiver has consumed it (rejects on an archive or source error). */
async function appendEntry(
  archive: ZipArchive,
  source: Readable | Buffer,
  data: { name: string; store?: boolean },
  signal: AbortSignal,
): Promise<void> {
  const consumed = once(archive, 'entry', { signal });
  let sourceFailed: Promise<never> | null = null;
  if (!Buffer.isBuffer(source)) {
    if (source.errored) throw source.errored;
    // Keeps a late error (an aborted upstream download after the client left) from being an uncaught exception.
    source.on('error', () => undefined);
    sourceFailed = once(source, 'error', { signal }).then(([err]) => {
      throw err as Error;
    });
    sourceFailed.catch(() => undefined);
  }
  archive.append(source, data);
  await (sourceFailed ? Promise.race([consumed, sourceFailed]) : consumed);
}

/**
 * Writes the packages of `grants` into `archive` in order and finalizes it. With `folders`, each package goes under
 * `<baoquan>/` (batch download). `first`, when given, is the already prepared package of `grants[0]`. While one
 * evidence's original streams, the next evidence's proof and certificate are prepared.
 *
 * The archive must already be consumed (piped to the response) or this never finishes: each entry waits for it.
 * @throws on any failure; the caller destroys the response (its headers are gone).
 */
export async function writePackages(
  archive: ZipArchive,
  grants: PackageGrant[],
  sources: PackageSources,
  opts: { folders: boolean; signal: AbortSignal; first?: PreparedPackage },
): Promise<void> {
  const { signal } = opts;
  const prepare = (i: number) => {
    const p = preparePackage(grants[i]!, sources, signal, false);
    p.catch(() => undefined); // awaited in its turn; must not be "unhandled" before that
    return p;
  };
  let next: Promise<PreparedPackage> | null =
    grants.length === 0 ? null : opts.first ? Promise.resolve(opts.first) : prepare(0);
  for (let i = 0; next; i++) {
    const item = await next;
    next = i + 1 < grants.length ? prepare(i + 1) : null;
    const dir = opts.folders ? `${safeEntryName(item.grant.baoquan)}/` : '';
    await appendEntry(archive, item.proofJson, { name: `${dir}proof.json` }, signal);
    await appendEntry(archive, item.certificatePdf, { name: `${dir}certificate.pdf` }, signal);
    if (item.originalEntry && item.grant.downUrl) {
      const original = item.original ?? (await sources.upstream.original(item.grant.downUrl, signal));
      // Originals are mostly compressed already (images, video, office files) and may be gigabytes: stored as
      // they are. User data exported as CSV is text and deflates well.
      const store = item.grant.kind !== 'property';
      await appendEntry(archive, original, { name: `${dir}${item.originalEntry}`, store }, signal);
    }
  }
  await archive.finalize();
}
