/**
 * Test helpers of the package tests: download a response to a file (ZIPs are read from their end, so they need a
 * file), then list a ZIP's entries with yauzl, hashing each and keeping the small ones' bytes. Not production code.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** One entry of a ZIP as the tests see it. */
export interface ZipEntryInfo {
  name: string;
  /** 0 stored, 8 deflated. */
  compressionMethod: number;
  size: number;
  sha256: string;
  /** The bytes, for entries up to 4 MiB; else null. */
  bytes: Buffer | null;
}

/** Streams a fetch response body into `file`. */
export async function saveBody(res: Response, file: string): Promise<void> {
  if (!res.body) throw new Error('no body');
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
}

/** Reads every entry of the ZIP at `file` (validating sizes and CRCs as yauzl does). */
export async function readZip(file: string): Promise<ZipEntryInfo[]> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  const out: ZipEntryInfo[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const stream = await zip.openReadStreamPromise(entry);
      const hash = createHash('sha256');
      const keep = entry.uncompressedSize <= 4 * 1024 * 1024;
      const chunks: Buffer[] = [];
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        if (keep) chunks.push(chunk);
      }
      out.push({
        name: entry.fileName,
        compressionMethod: entry.compressionMethod,
        size: entry.uncompressedSize,
        sha256: hash.digest('hex'),
        bytes: keep ? Buffer.concat(chunks) : null,
      });
    }
  } finally {
    zip.close();
  }
  return out;
}
