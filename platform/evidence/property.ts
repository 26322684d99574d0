/**
 * User-data evidence (spec 01 §2.3, §3 `userData`): rows with named fields, from an uploaded CSV or
 * XLSX file or from fields/rows typed on the page, normalised to the bytes that are stored and hashed:
 * UTF-8 CSV per RFC 4180 (header row first, CRLF line ends, a field quoted only when it holds `"`, `,`, CR or LF,
 * quotes doubled, no BOM), written streaming to a temp file while its SHA-256 is computed.
 *
 * Inputs: CSV in UTF-8 (with or without BOM) or, when the bytes are not valid UTF-8, GB18030 (what Excel on Chinese
 * Windows writes), parsed with csv-parse as a stream; XLSX read with the exceljs streaming reader (first sheet, dates
 * as "YYYY-MM-DD[ HH:mm:ss]", formulas as their cached result, rich text as plain text). The format is decided from
 * the bytes (magic numbers, UTF-8 validity), never the name. Wholly empty rows are skipped. Limits:
 * `PropertyRowsLimits` (fields, rows, characters per cell); every violation is an ApiError 400 with a Chinese message
 * from contract `Msg` naming the row (row 1 = the header, as in a spreadsheet) and column. The readers of the two
 * input formats are in property-readers.ts; this module writes, checks and hashes the normalised CSV.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidenceMsg, PropertyRowsLimits } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError } from '../core/errors.ts';
import { readHead, sniffType, tempPath, type ReceivedFile } from '../files/temp.ts';
import { readCsv, readXlsx, type RowSink } from './property-readers.ts';

/** One field of the user-data summary: its name and the first row's value cut to 10 characters. */
export interface DataField {
  fieldName: string;
  exampleValue: string;
}

/** The normalised CSV in the temp area plus its summary. */
export interface NormalisedData extends ReceivedFile {
  /** Data rows, without the header. */
  lines: number;
  fields: DataField[];
}

/** Characters kept of an example value (spec 01 §2.3). */
export const EXAMPLE_VALUE_CHARS = 10;
/** Name of the stored user data inside a package and as the evidence's file name. */
export const PROPERTY_FILE_NAME = 'data.csv';
/** MIME type of the stored user data. */
export const PROPERTY_MIME = 'text/csv; charset=utf-8';

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/** First `n` characters (code points, not UTF-16 units) of `s`. */
export function cutChars(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length <= n ? s : chars.slice(0, n).join('');
}

/** One CSV field per RFC 4180: quoted only when it holds a quote, comma, CR or LF; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Parses the `data_fields` JSON column (null or malformed → []). */
export function parseDataFields(json: string | null): DataField[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v)
      ? v.map((f: { fieldName?: unknown; exampleValue?: unknown }) => ({
          fieldName: String(f.fieldName ?? ''),
          exampleValue: String(f.exampleValue ?? ''),
        }))
      : [];
  } catch {
    return [];
  }
}

/**
 * Receives a header then rows, checks the limits, and writes the normalised CSV to a temp file with its SHA-256.
 * Call {@link finish} at the end or {@link abort} on failure (deletes the temp file).
 */
export class NormalisedCsvWriter implements RowSink {
  private readonly file: string;
  private readonly out: fs.WriteStream;
  private readonly hash = createHash('sha256');
  private size = 0;
  private buffered: string[] = [];
  private bufferedLength = 0;
  private header: string[] | null = null;
  private firstRow: string[] | null = null;
  private rows = 0;

  constructor(tmpDir: string) {
    this.file = tempPath(tmpDir, 'property');
    this.out = fs.createWriteStream(this.file, { flags: 'wx', mode: 0o600 });
    this.out.on('error', () => undefined); // surfaced by the awaited writes
  }

  /** True once the header has been given. */
  get hasHeader(): boolean {
    return this.header !== null;
  }

  /** Takes the field names (trimmed; a BOM is dropped). @throws ApiError on empty, duplicate or too many names */
  async writeHeader(names: string[]): Promise<void> {
    const clean = names.map((n, i) => (i === 0 ? n.replace(/^\uFEFF/, '') : n).trim());
    while (clean.length > 0 && clean[clean.length - 1] === '') clean.pop();
    if (clean.length === 0) throw bad(EvidenceMsg.propertyNoFields);
    if (clean.length > PropertyRowsLimits.maxFields) {
      throw bad(EvidenceMsg.propertyTooManyFields(PropertyRowsLimits.maxFields));
    }
    const seen = new Set<string>();
    for (const [i, name] of clean.entries()) {
      if (name === '') throw bad(EvidenceMsg.propertyFieldNameEmpty(i + 1));
      if (name.length > PropertyRowsLimits.maxCell) {
        throw bad(EvidenceMsg.propertyCellTooLong(1, i + 1, PropertyRowsLimits.maxCell));
      }
      if (seen.has(name)) throw bad(EvidenceMsg.propertyFieldDuplicate(name));
      seen.add(name);
    }
    this.header = clean;
    await this.line(clean);
  }

  /**
   * Takes one data row. Wholly empty rows are skipped. `rowNo` is the row's number for messages (header = 1).
   * @param padShort pad a short row with empty cells (XLSX omits trailing empty cells); CSV rows must match exactly
   * @throws ApiError on a ragged row, a too long cell or too many rows
   */
  async writeRow(values: string[], rowNo: number, padShort = false): Promise<void> {
    const header = this.header;
    if (!header) throw new Error('writeHeader first');
    if (values.every((v) => v === '')) return;
    let cells = values;
    if (cells.length > header.length) {
      // cells past the header that are all empty are not data (spreadsheet formatting, trailing commas)
      if (cells.slice(header.length).every((v) => v === '')) cells = cells.slice(0, header.length);
      else throw bad(EvidenceMsg.propertyRagged(rowNo, cells.length, header.length));
    }
    if (cells.length < header.length) {
      if (!padShort) throw bad(EvidenceMsg.propertyRagged(rowNo, cells.length, header.length));
      cells = [...cells, ...Array<string>(header.length - cells.length).fill('')];
    }
    for (const [i, v] of cells.entries()) {
      if (v.length > PropertyRowsLimits.maxCell && Array.from(v).length > PropertyRowsLimits.maxCell) {
        throw bad(EvidenceMsg.propertyCellTooLong(rowNo, i + 1, PropertyRowsLimits.maxCell));
      }
    }
    if (this.rows >= PropertyRowsLimits.maxRows)
      throw bad(EvidenceMsg.propertyTooManyRows(PropertyRowsLimits.maxRows));
    this.rows++;
    this.firstRow ??= cells;
    await this.line(cells);
  }

  private async line(cells: string[]): Promise<void> {
    const text = `${cells.map(csvField).join(',')}\r\n`;
    this.buffered.push(text);
    this.bufferedLength += text.length;
    if (this.bufferedLength >= 64 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const chunk = Buffer.from(this.buffered.join(''), 'utf8');
    this.buffered = [];
    this.bufferedLength = 0;
    this.hash.update(chunk);
    this.size += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  /**
   * Completes the file. @returns the temp file with its SHA-256, size, row count and field summary
   * @throws ApiError when there was no header or no data row
   */
  async finish(): Promise<NormalisedData> {
    if (!this.header) throw bad(EvidenceMsg.propertyNoFields);
    if (this.rows === 0 || !this.firstRow) throw bad(EvidenceMsg.propertyNoRows);
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
    const first = this.firstRow;
    return {
      path: this.file,
      size: this.size,
      sha256: this.hash.digest('hex'),
      isText: true,
      lines: this.rows,
      fields: this.header.map((fieldName, i) => ({
        fieldName,
        exampleValue: cutChars(first[i] ?? '', EXAMPLE_VALUE_CHARS),
      })),
    };
  }

  /** Closes and deletes the temp file (after a failure). Never throws. */
  async abort(): Promise<void> {
    // The stream opens its file asynchronously: wait until it has closed it, or a failure right after the start
    // would remove nothing and the open would create the file after that (seen in CI under load).
    if (!this.out.closed) {
      const closed = once(this.out, 'close').catch(() => undefined);
      this.out.destroy();
      await closed;
    }
    await fsp.rm(this.file, { force: true }).catch(() => undefined);
  }
}

/** Runs `fill` against a fresh writer; on any failure the temp file is removed and the error rethrown. */
async function withWriter(
  tmpDir: string,
  fill: (w: NormalisedCsvWriter) => Promise<void>,
): Promise<NormalisedData> {
  await fsp.mkdir(tmpDir, { recursive: true });
  const w = new NormalisedCsvWriter(tmpDir);
  try {
    await fill(w);
    return await w.finish();
  } catch (err) {
    await w.abort();
    throw err;
  }
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Normalises an uploaded user-data file (already in the temp area, files/temp.ts) by its content: XLSX (a ZIP that
 * is a spreadsheet), CSV in UTF-8, or CSV in GB18030.
 * @param received the upload; `isText` means valid UTF-8 without NUL bytes
 * @returns the normalised CSV (a new temp file; the upload is left for the caller to delete)
 * @throws ApiError 400: empty file, legacy .xls, another binary format, undecodable text, bad CSV/XLSX, limits
 */
export async function normaliseUpload(received: ReceivedFile, tmpDir: string): Promise<NormalisedData> {
  if (received.size === 0) throw bad(Msg.fileEmpty);
  const magic = await readHead(received.path, 8192);
  if (magic.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const detected = await sniffType(received.path);
    if (detected && detected.mime !== XLSX_MIME && detected.mime !== 'application/zip') {
      throw bad(EvidenceMsg.propertyBadFileType);
    }
    return withWriter(tmpDir, (w) => readXlsx(received.path, w));
  }
  if (magic.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    throw bad(EvidenceMsg.propertyXlsUnsupported);
  }
  if (received.isText) return withWriter(tmpDir, (w) => readCsv(received.path, false, w));
  if (magic.includes(0)) throw bad(EvidenceMsg.propertyBadFileType);
  if (await sniffType(received.path)) throw bad(EvidenceMsg.propertyBadFileType);
  return withWriter(tmpDir, (w) => readCsv(received.path, true, w));
}

/**
 * Normalises fields and rows typed on the page: `fieldsJson` a JSON string[] and `rowsJson` a JSON string[][]
 * (numbers are accepted and written as text). Rows must have exactly as many cells as there are fields.
 * @throws ApiError 400 on malformed JSON and on every rule of the module comment
 */
export async function normaliseTyped(
  fieldsJson: string,
  rowsJson: string,
  tmpDir: string,
): Promise<NormalisedData> {
  const asCells = (v: unknown): string[] | null =>
    Array.isArray(v) &&
    v.every((c) => typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean' || c === null)
      ? v.map((c) => (c === null ? '' : String(c)))
      : null;
  let fields: string[] | null;
  let rows: unknown;
  try {
    fields = asCells(JSON.parse(fieldsJson));
    rows = JSON.parse(rowsJson);
  } catch {
    throw bad(EvidenceMsg.propertyBadJson);
  }
  if (!fields || !Array.isArray(rows)) throw bad(EvidenceMsg.propertyBadJson);
  if (rows.length > PropertyRowsLimits.maxRows)
    throw bad(EvidenceMsg.propertyTooManyRows(PropertyRowsLimits.maxRows));
  const rowList = rows as unknown[];
  return withWriter(tmpDir, async (w) => {
    await w.writeHeader(fields);
    for (const [i, r] of rowList.entries()) {
      const cells = asCells(r);
      if (!cells) throw bad(EvidenceMsg.propertyBadJson);
      await w.writeRow(cells, i + 2);
    }
  });
}
