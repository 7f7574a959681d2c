import { parseBulkCsv } from '../../shared/app/schedule/csv';
import { AppError } from '../../shared/domain/errors';

const codeOf = (fn: () => unknown) => {
  try { fn(); } catch (err) { return (err as AppError).code; }
  return 'no error';
};

describe('bulk CSV parsing', () => {
  it('maps the columns to post fields; ;-separated platforms and media_urls', () => {
    const rows = parseBulkCsv('platforms,text,run_at,title,media_urls,brand_id,subreddit,privacy\n' +
      'telegram; discord ,Hello,2026-05-01T09:00:00Z,T,https://x.test/a.jpg;https://x.test/b.mp4,brd_1,pics,public\n');
    expect(rows).toEqual([{ row: 1, fields: {
      platforms: ['telegram', 'discord'], text: 'Hello', run_at: '2026-05-01T09:00:00Z', title: 'T',
      media: [{ url: 'https://x.test/a.jpg' }, { url: 'https://x.test/b.mp4' }], brand_id: 'brd_1', subreddit: 'pics', privacy: 'public',
    } }]);
  });

  it('quoted fields keep commas, quotes and line breaks (CRLF inside a field becomes \\n)', () => {
    const rows = parseBulkCsv('platforms,text\r\ntelegram,"Hello, world\r\nsecond line"\r\ndiscord,"She said ""hi"""\r\n');
    expect(rows.map((r) => r.fields.text)).toEqual(['Hello, world\nsecond line', 'She said "hi"']);
    expect(rows.map((r) => r.row)).toEqual([1, 2]);
  });

  it('a UTF-8 BOM, CRLF line ends, header case and order, empty cells', () => {
    const rows = parseBulkCsv('\ufeffTEXT,Platforms,RUN_AT\r\nhi,telegram,\r\n');
    expect(rows).toEqual([{ row: 1, fields: { platforms: ['telegram'], text: 'hi' } }]);
  });

  it('blank lines and all-empty records are skipped and not numbered', () => {
    const rows = parseBulkCsv('platforms,text\n\ntelegram,one\n,\n\r\n  \ntelegram,two\n');
    expect(rows.map((r) => [r.row, r.fields.text])).toEqual([[1, 'one'], [2, 'two']]);
  });

  it('a record with the wrong number of fields is reported on its row, the others still parse', () => {
    const rows = parseBulkCsv('platforms,text\ntelegram,ok\ntelegram,too,many\ntelegram\n');
    expect(rows.map((r) => [r.row, r.problem ?? 'ok'])).toEqual([[1, 'ok'], [2, 'The row has 3 fields; the header has 2'], [3, 'The row has 1 field; the header has 2']]);
  });

  it('500 rows pass; 501 rows are too_many_rows', () => {
    const body = (n: number) => 'platforms,text\n' + Array.from({ length: n }, (_, i) => `telegram,"post ${i}, with a comma"`).join('\n');
    expect(parseBulkCsv(body(500))).toHaveLength(500);
    expect(codeOf(() => parseBulkCsv(body(501)))).toBe('too_many_rows');
  });

  it.each([
    ['', 'invalid_csv'],
    ['platforms,text\n', 'invalid_csv'],
    ['platforms,txt\ntelegram,x\n', 'invalid_csv'],
    ['text,run_at\nx,next_slot\n', 'invalid_csv'],
    ['platforms,text,text\ntelegram,a,b\n', 'invalid_csv'],
    ['platforms,text\ntelegram,"never closed\n', 'invalid_csv'],
  ])('refuses a malformed file %j (%s)', (csv, code) => {
    expect(codeOf(() => parseBulkCsv(csv))).toBe(code);
  });
});
