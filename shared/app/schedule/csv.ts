import { parse } from 'csv-parse/sync';
import { BadRequestError } from '../../domain/errors';
import { MAX_BULK_ROWS } from './request';

/**
 * The CSV form of POST /api/bulk (decisions.md "Scheduling"): a header row naming columns from CSV_COLUMNS (any
 * order, case-insensitive), then one post per record. `platforms` and `media_urls` hold `;`-separated lists.
 * RFC 4180 quoting (commas, quotes and line breaks inside quoted fields), a UTF-8 BOM, CRLF or LF line ends. Blank
 * lines and records whose every field is empty are skipped and not numbered. Line breaks inside fields become \n.
 */
export const CSV_COLUMNS = ['platforms', 'text', 'run_at', 'title', 'media_urls', 'brand_id', 'subreddit', 'privacy', 'idempotency_key'] as const;
type Column = (typeof CSV_COLUMNS)[number];

export interface CsvRow {
  /** 1-based number of the data record (the header is not counted). */
  row: number;
  /** The row as post-request fields, or why the record itself is malformed. */
  fields: Record<string, unknown>;
  problem?: string;
}

const list = (v: string) => v.split(';').map((s) => s.trim()).filter((s) => s !== '');

/** Parses the CSV text into rows (400 invalid_csv for a malformed file, too_many_rows past the limit). */
export function parseBulkCsv(text: string): CsvRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true }) as string[][];
  } catch (err) {
    throw new BadRequestError(`The CSV could not be read: ${(err as Error).message}`, { code: 'invalid_csv' });
  }
  if (records.length === 0) throw new BadRequestError('The CSV is empty: send a header row, then one row per post', { code: 'invalid_csv' });
  const header = records[0].map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) {
    throw new BadRequestError(`Unknown CSV column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; the columns are ${CSV_COLUMNS.join(', ')}`, { code: 'invalid_csv', details: { columns: unknown } });
  }
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  if (repeated.length) throw new BadRequestError(`CSV column named twice: ${[...new Set(repeated)].join(', ')}`, { code: 'invalid_csv' });
  if (!header.includes('platforms')) throw new BadRequestError('The CSV header must include a platforms column', { code: 'invalid_csv' });

  const data = records.slice(1);
  if (data.length > MAX_BULK_ROWS) {
    throw new BadRequestError(`At most ${MAX_BULK_ROWS} rows per request; this CSV has ${data.length}`, { code: 'too_many_rows', details: { limit: MAX_BULK_ROWS, rows: data.length } });
  }
  if (data.length === 0) throw new BadRequestError('The CSV has a header but no rows', { code: 'invalid_csv' });
  return data.map((record, i) => {
    const row = i + 1;
    if (record.length !== header.length) {
      return { row, fields: {}, problem: `The row has ${record.length} field${record.length === 1 ? '' : 's'}; the header has ${header.length}` };
    }
    const cells = Object.fromEntries(header.map((h, j) => [h, record[j].replace(/\r\n?/g, '\n')])) as Partial<Record<Column, string>>;
    const fields: Record<string, unknown> = {};
    const put = (k: string, v: string | undefined) => { if (v !== undefined && v.trim() !== '') fields[k] = v; };
    if (cells.platforms !== undefined) fields.platforms = list(cells.platforms);
    put('text', cells.text);
    put('title', cells.title);
    if (cells.media_urls !== undefined && cells.media_urls.trim() !== '') fields.media = list(cells.media_urls).map((url) => ({ url }));
    for (const k of ['run_at', 'brand_id', 'subreddit', 'privacy', 'idempotency_key'] as const) put(k, cells[k]?.trim());
    return { row, fields };
  });
}
