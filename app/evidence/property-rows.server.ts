/**
 * The typed rows of /newProperty (spec 01 §2.2, §3): CSV text, first line the field names, parsed with csv-parse.
 * Server only (the `.server` suffix keeps csv-parse, which needs Node's Buffer, out of the browser bundle: imported
 * by the route module, it broke the page with "Buffer is not defined" when opened by an in-app link).
 */
import { parse } from 'csv-parse/sync';
import { PropertyRowsLimits } from '../../contract/evidence.ts';

/** Parses the typed rows (CSV text). @returns `{fields, rows}` or an error message. */
export function parseTypedRows(text: string): { fields: string[]; rows: string[][] } | { error: string } {
  let records: string[][];
  try {
    records = parse(text.trim(), {
      relax_column_count: false,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch {
    return { error: '数据格式有误：每行的项数须与字段名称一致，含逗号的内容请用英文双引号括起' };
  }
  const [fields, ...rows] = records;
  if (!fields || fields.length === 0) return { error: '请填写字段名称和数据' };
  if (rows.length === 0) return { error: '请至少填写一条数据' };
  if (fields.length > PropertyRowsLimits.maxFields)
    return { error: `字段不能超过${PropertyRowsLimits.maxFields}个` };
  if (rows.length > PropertyRowsLimits.maxRows)
    return { error: `数据不能超过${PropertyRowsLimits.maxRows}条` };
  return { fields, rows };
}
