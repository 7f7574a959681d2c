/** What a route's function returns; the handler maps it to an API Gateway v2 result. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A full HTML page instead of JSON. */
  html?: string;
  cookies?: string[];
}

/** Headers of every JSON answer. */
export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const html = (page: string, status = 200): Reply => ({ status, html: page });

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]);

/** A small, self-contained HTML page (no external assets), used for confirmation and hosted pages. */
export function page(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}` +
    `code{background:#f3f3f3;padding:.2rem .4rem;border-radius:4px;word-break:break-all}</style></head><body>${bodyHtml}</body></html>`;
}
