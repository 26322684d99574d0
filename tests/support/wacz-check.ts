/**
 * An independent check of a capture's WACZ (decision 037): every file that `datapackage.json` lists is in the ZIP
 * with that SHA-256 and size, `datapackage-digest.json` holds the SHA-256 of `datapackage.json`, and the WARC's
 * records parse with warcio. Reads the ZIP with yauzl (not the code that wrote it).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import yauzl, { type Entry } from 'yauzl';
import { WARCParser } from 'warcio';

/** A WARC record as the check reads it. */
export interface WarcRecordSeen {
  type: string;
  url: string | null;
  ipAddress: string | null;
  status: number | null;
  payload: Buffer;
}

/** What {@link checkWacz} found. */
export interface WaczCheck {
  /** Entry names of the ZIP. */
  entries: string[];
  /** Problems found; empty when the package is whole. */
  problems: string[];
  records: WarcRecordSeen[];
  /** The bytes of each entry. */
  read(name: string): Buffer;
}

/** Every entry of the ZIP at `file`, by name (test-sized files only: all held in memory). */
export async function unzipAll(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Checks the WACZ at `file`. */
export async function checkWacz(file: string): Promise<WaczCheck> {
  const files = await unzipAll(file);
  const problems: string[] = [];
  const datapackage = files.get('datapackage.json');
  if (!datapackage) problems.push('no datapackage.json');
  const pkg = JSON.parse(datapackage?.toString('utf8') ?? '{}') as {
    resources?: { path: string; hash: string; bytes: number }[];
  };
  for (const r of pkg.resources ?? []) {
    const bytes = files.get(r.path);
    if (!bytes) problems.push(`${r.path} is listed but missing`);
    else if (sha256(bytes) !== r.hash || bytes.length !== r.bytes)
      problems.push(`${r.path} does not match its hash`);
  }
  const digest = JSON.parse(files.get('datapackage-digest.json')?.toString('utf8') ?? '{}') as {
    hash?: string;
  };
  if (!datapackage || digest.hash !== sha256(datapackage))
    problems.push('datapackage-digest.json does not match');
  const records: WarcRecordSeen[] = [];
  const warc = files.get('archive/data.warc.gz');
  if (!warc) problems.push('no archive/data.warc.gz');
  else {
    for await (const record of new WARCParser(Readable.from([warc]))) {
      const payload = Buffer.from(await record.readFully(true));
      records.push({
        type: record.warcType ?? '',
        url: record.warcTargetURI ?? null,
        ipAddress: record.warcHeader('WARC-IP-Address') ?? null,
        status: record.httpHeaders?.statusCode ? Number(record.httpHeaders.statusCode) : null,
        payload,
      });
    }
  }
  return {
    entries: [...files.keys()],
    problems,
    records,
    read: (name) => {
      const b = files.get(name);
      if (!b) throw new Error(`${name} is not in the WACZ`);
      return b;
    },
  };
}
