/**
 * What a capture's certificate and preview show from inside its stored WACZ (decision 039): the screenshot
 * of each captured page (web) or step (process), and a process capture's video. The WACZ is read where it is stored,
 * through range reads of the bucket (yauzl over a RandomAccessReader), so an entry of a large package is found by its
 * central directory and streamed without reading the rest.
 *
 * Which entries exist comes from the capture's record (`capture_jobs.meta_json`, written by the gateway's worker);
 * only the worker's own entry names are accepted: `capture/page-<n>/screenshot.png`, `capture/step-<n>.png`,
 * `capture/process.webm`.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { FileBucket } from '../files/storage.ts';

const SHOT_RE = /^capture\/(page-\d{1,3}\/screenshot|step-\d{1,3})\.png$/;
const VIDEO_PATH = 'capture/process.webm';

/** The artefacts of one capture's record: its screenshots in order and its video's entry, if any. */
export interface CaptureArtefacts {
  shots: string[];
  video: string | null;
}

/**
 * The artefacts named by a capture record (JSON text: `{pages: [{screenshot}]}` or `{steps: [{screenshot}], video}`);
 * nothing for a missing or malformed record or a name the worker would not write.
 */
export function artefactsOf(metaJson: string | null | undefined): CaptureArtefacts {
  let meta: { pages?: unknown; steps?: unknown; video?: unknown };
  try {
    meta = metaJson ? (JSON.parse(metaJson) as typeof meta) : {};
  } catch {
    meta = {};
  }
  const items = Array.isArray(meta.pages) ? meta.pages : Array.isArray(meta.steps) ? meta.steps : [];
  const shots = items
    .map((p: { screenshot?: unknown }) => p?.screenshot)
    .filter((s): s is string => typeof s === 'string' && SHOT_RE.test(s));
  return { shots, video: meta.video === VIDEO_PATH ? VIDEO_PATH : null };
}

/** yauzl's reader over one stored object: every read is a range read of the bucket. */
class BucketReader extends yauzl.RandomAccessReader {
  private readonly bucket: FileBucket;
  private readonly key: string;
  constructor(bucket: FileBucket, key: string) {
    super();
    this.bucket = bucket;
    this.key = key;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    // yauzl's end is exclusive; the bucket's (like fs's) inclusive
    return this.bucket.get(this.key, { start, end: end - 1 });
  }
}

/**
 * A stream of the entry `entryPath` of the ZIP stored at `key` (decompressed), with its size in bytes; null when the
 * object or the entry is missing or the ZIP cannot be read.
 */
export async function openStoredZipEntry(
  bucket: FileBucket,
  key: string,
  entryPath: string,
): Promise<{ stream: Readable; size: number } | null> {
  const size = await bucket.size(key);
  if (size === null) return null;
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new BucketReader(bucket, key), size, {
      lazyEntries: true,
      autoClose: false,
    });
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    const done = (value: { stream: Readable; size: number } | null) => {
      zip.removeAllListeners('entry');
      if (!value) zip.close();
      resolve(value);
    };
    zip.on('error', () => done(null));
    zip.on('end', () => done(null));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== entryPath) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err) return done(null);
        stream.once('close', () => zip.close());
        done({ stream, size: entry.uncompressedSize });
      });
    });
    zip.readEntry();
  });
}
