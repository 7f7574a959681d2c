/**
 * CSV output (RFC 4180): fields with a comma, quote, CR or LF are quoted, quotes doubled, lines end with CRLF.
 * Formula-injection safe: a cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR, also
 * after leading spaces or other whitespace, which spreadsheets skip) is prefixed with an apostrophe, so it is shown as text.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^\s*[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: ReadonlyArray<string | number | boolean | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;
