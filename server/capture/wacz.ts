/**
 * The capture's archive (decision 037): HTTP exchanges written as WARC 1.1 records with webrecorder's warcio (a
 * request and a response record per exchange, each gzip member on its own, SHA-256 block and payload digests,
 * `WARC-IP-Address` where the egress proxy knew the address), and the WACZ 1.1.1 package around them
 * (specs.webrecorder.net/wacz/1.1.1): `archive/data.warc.gz`, `indexes/index.cdx` (CDXJ by warcio's indexer),
 * `pages/pages.jsonl`, the capture's own files (screenshots, PDFs, DOM, `capture.json`), and `datapackage.json`
 * listing every file with its SHA-256 and size, whose own digest is `datapackage-digest.json`. The evidence
 * preserved is the WACZ file itself: its SHA-256 is what the ledger records.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { CDXIndexer, WARCParser, WARCRecord, WARCSerializer } from 'warcio';

/** One HTTP exchange as the browser saw it (bodies decoded). */
export interface Exchange {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: Uint8Array | null;
  status: number;
  statusText: string;
  responseHeaders: Record<string, string>;
  /** Null for a redirect or a body the browser did not keep. */
  body: Uint8Array | null;
  /** The server's address (the egress proxy's pinned address), when known. */
  ipAddress: string | null;
  /** When the response arrived. */
  date: Date;
}

/** Headers that describe the wire form, not the decoded body the WARC holds. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

const DIGEST = { algo: 'sha-256', prefix: 'sha256:', base32: false } as const;

/** Appends WARC records to one `.warc.gz` file, as they come. */
export class WarcWriter {
  private readonly out: fs.WriteStream;
  private failed: Error | null = null;

  /** Opens `file` and writes the warcinfo record first. */
  static async open(file: string, software: string): Promise<WarcWriter> {
    const w = new WarcWriter(file);
    const info = WARCRecord.createWARCInfo(
      { filename: path.basename(file), warcVersion: 'WARC/1.1' },
      { software, format: 'WARC File Format 1.1' },
    );
    await w.write(info);
    return w;
  }
  readonly file: string;

  private constructor(file: string) {
    this.file = file;
    this.out = fs.createWriteStream(file);
    this.out.on('error', (err) => (this.failed = err));
  }

  private async write(record: WARCRecord): Promise<void> {
    if (this.failed) throw this.failed;
    const bytes = await WARCSerializer.serialize(record, { gzip: true, digest: DIGEST });
    if (!this.out.write(bytes)) await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }

  /** Writes the request and the response record of `x`. */
  async exchange(x: Exchange): Promise<void> {
    const date = x.date.toISOString();
    const u = new URL(x.url);
    const request = WARCRecord.create(
      {
        url: x.url,
        date,
        type: 'request',
        warcVersion: 'WARC/1.1',
        statusline: `${x.method} ${u.pathname}${u.search} HTTP/1.1`,
        httpHeaders: { host: u.host, ...x.requestHeaders },
      },
      [x.requestBody ?? new Uint8Array()],
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(x.responseHeaders)) {
      if (!WIRE_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    const body = x.body ?? new Uint8Array();
    headers['content-length'] = String(body.length);
    const response = WARCRecord.create(
      {
        url: x.url,
        date,
        type: 'response',
        warcVersion: 'WARC/1.1',
        statusline: `HTTP/1.1 ${x.status} ${x.statusText || 'OK'}`,
        httpHeaders: headers,
        warcHeaders: x.ipAddress ? { 'WARC-IP-Address': x.ipAddress } : {},
      },
      [body],
    );
    await this.write(request);
    await this.write(response);
  }

  /** Finishes the file. @throws the first write error */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.out.end(resolve));
    if (this.failed) throw this.failed;
  }
}

/** The CDXJ index of a `.warc.gz` file, sorted (warcio's indexer), as `indexes/index.cdx` holds it. */
export async function cdxjOf(warcFile: string, name: string): Promise<string> {
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const lines: string[] = [];
  const parser = new WARCParser(fs.createReadStream(warcFile));
  for await (const entry of indexer.iterRecords(parser, name)) lines.push(indexer.serializeCDXJ(entry));
  return lines.sort().join('');
}

/** A file to put in the WACZ: its path inside, and where it is now or its bytes. */
export interface WaczFile {
  path: string;
  source: string | Uint8Array;
}

/** One page of `pages/pages.jsonl`. */
export interface WaczPage {
  id: string;
  url: string;
  ts: string;
  title: string;
}

async function sha256Of(source: string | Uint8Array): Promise<{ hash: string; bytes: number }> {
  const h = createHash('sha256');
  if (typeof source !== 'string') {
    h.update(source);
    return { hash: h.digest('hex'), bytes: source.length };
  }
  let bytes = 0;
  for await (const chunk of fs.createReadStream(source)) {
    bytes += (chunk as Buffer).length;
    h.update(chunk as Buffer);
  }
  return { hash: h.digest('hex'), bytes };
}

/**
 * Writes the WACZ at `file`: `files` (the WARC at `archive/data.warc.gz` among them), the pages list, the data
 * package with every file's SHA-256 and size, and its digest. Stored, not deflated (the WARC is gzip already and the
 * images PNG), so the package's bytes are the files' bytes.
 * @returns the WACZ's SHA-256 (hex) and size in bytes
 */
export async function writeWacz(
  file: string,
  files: WaczFile[],
  pages: WaczPage[],
  meta: { title: string; created: Date; software: string },
): Promise<{ sha256: string; bytes: number }> {
  const pagesJsonl =
    [
      JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }),
      ...pages.map((p) => JSON.stringify(p)),
    ].join('\n') + '\n';
  const all: WaczFile[] = [
    ...files,
    { path: 'pages/pages.jsonl', source: new TextEncoder().encode(pagesJsonl) },
  ];
  const resources = [];
  for (const f of all) {
    const { hash, bytes } = await sha256Of(f.source);
    resources.push({ name: path.basename(f.path), path: f.path, hash: `sha256:${hash}`, bytes });
  }
  const datapackage = new TextEncoder().encode(
    `${JSON.stringify(
      {
        profile: 'data-package',
        wacz_version: '1.1.1',
        title: meta.title,
        created: meta.created.toISOString(),
        software: meta.software,
        resources,
      },
      null,
      2,
    )}\n`,
  );
  const digest = await sha256Of(datapackage);
  const digestJson = JSON.stringify({ path: 'datapackage.json', hash: `sha256:${digest.hash}` }, null, 2);

  const zip = new ZipArchive({ store: true });
  const done = pipeline(zip, fs.createWriteStream(file));
  for (const f of all) {
    zip.append(typeof f.source === 'string' ? fs.createReadStream(f.source) : Buffer.from(f.source), {
      name: f.path,
      date: meta.created,
    });
  }
  zip.append(Buffer.from(datapackage), { name: 'datapackage.json', date: meta.created });
  zip.append(`${digestJson}\n`, { name: 'datapackage-digest.json', date: meta.created });
  await zip.finalize();
  await done;
  const { hash, bytes } = await sha256Of(file);
  return { sha256: hash, bytes };
}
