/**
 * The readers of user-data uploads (spec 01 §2.3; the rules in property.ts): CSV in UTF-8 or GB18030 through
 * csv-parse, XLSX through the exceljs streaming reader (first sheet only), each feeding a {@link RowSink} row by row,
 * never holding the whole file. Parse failures become ApiError 400 with the contract's messages.
 */
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidenceMsg, PropertyRowsLimits } from '../../contract/evidence.ts';
import { ApiError } from '../core/errors.ts';

/** Where the readers put what they read (property.ts `NormalisedCsvWriter`). */
export interface RowSink {
  /** True once the header has been given. */
  readonly hasHeader: boolean;
  /** Takes the field names. @throws ApiError on a rule of property.ts */
  writeHeader(names: string[]): Promise<void>;
  /** Takes one data row; `rowNo` counts the header as 1; `padShort` pads a short row. @throws ApiError */
  writeRow(values: string[], rowNo: number, padShort?: boolean): Promise<void>;
}

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/** Decodes GB18030 bytes to UTF-8 bytes, streaming. @throws (on the stream) ApiError on undecodable bytes */
function gb18030ToUtf8(): Transform {
  const decoder = new TextDecoder('gb18030', { fatal: true });
  const fail = () => bad(EvidenceMsg.propertyBadEncoding);
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        cb(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
      } catch {
        cb(fail());
      }
    },
    flush(cb) {
      try {
        cb(null, Buffer.from(decoder.decode(), 'utf8'));
      } catch {
        cb(fail());
      }
    },
  });
}

/** Streams the CSV records of `file` (UTF-8, or GB18030 when `gb18030`) into the writer. */
export async function readCsv(file: string, gb18030: boolean, w: RowSink): Promise<void> {
  const input = fs.createReadStream(file);
  const source: Readable = gb18030 ? input.pipe(gb18030ToUtf8()) : input;
  const parser = source.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // one record can hold at most maxFields × maxCell characters; beyond that it is not our data
      max_record_size: PropertyRowsLimits.maxFields * PropertyRowsLimits.maxCell * 2,
    }),
  );
  input.on('error', (err) => parser.destroy(err));
  if (source !== input) source.on('error', (err) => parser.destroy(err));
  let rowNo = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNo++;
      if (!w.hasHeader) await w.writeHeader(record);
      else await w.writeRow(record, rowNo);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof CsvError) {
      const lines = typeof err.lines === 'number' ? err.lines : rowNo + 1;
      throw bad(EvidenceMsg.propertyBadCsv(lines));
    }
    throw err;
  } finally {
    input.destroy();
    source.destroy();
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Text of one exceljs cell value (see the module comment). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    // exceljs gives spreadsheet wall-clock times as UTC instants
    const d = `${value.getUTCFullYear()}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())}`;
    const h = value.getUTCHours();
    const m = value.getUTCMinutes();
    const s = value.getUTCSeconds();
    return h || m || s ? `${d} ${pad2(h)}:${pad2(m)}:${pad2(s)}` : d;
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText))
      return v.richText.map((r: { text?: unknown }) => String(r.text ?? '')).join('');
    if ('formula' in v || 'sharedFormula' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return String(v.error);
  }
  return String(value);
}

/** Streams the first worksheet of the XLSX at `file` into the writer. */
export async function readXlsx(file: string, w: RowSink): Promise<void> {
  // Loaded on first use: exceljs is ~8.5 MB of heap the platform would otherwise carry (decision 056).
  const { default: ExcelJS } = await import('exceljs');
  const input = fs.createReadStream(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet) {
        // row.values is 1-based and sparse: index 0 is unused
        const raw = row.values as unknown[];
        const cells: string[] = [];
        for (let i = 1; i < raw.length; i++) cells.push(cellText(raw[i]));
        if (!w.hasHeader) {
          if (cells.every((c) => c.trim() === '')) continue;
          await w.writeHeader(cells);
        } else {
          await w.writeRow(cells, row.number, true);
        }
      }
      break; // the first sheet only
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw bad(EvidenceMsg.propertyBadXlsx);
  } finally {
    input.destroy();
  }
  if (!sawSheet) throw bad(EvidenceMsg.propertyBadXlsx);
}
