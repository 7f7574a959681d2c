import type { PlatformName } from '../../../shared/domain/platforms';
import { escapeHtml, page } from '../../../shared/http/reply';
import type { RecordedRequest } from '../../../shared/networks/sandbox-kit/fake-server';
import type { InboxEntry, InboxReading, RequestFields } from '../../../shared/networks/sandbox-kit/sandbox-simulator';

/*
 * The sandbox inbox (`GET /dev/sandbox`, `/dev/sandbox/inbox`): which recorded requests of the simulators are a post,
 * a part of one, or a delete or edit of one, as each network's simulator reads its own request shapes (`read`).
 */

const TEXT_KEYS = ['text', 'caption', 'content', 'message', 'commentary', 'body_markdown', 'contentMarkdown', 'status', 'description', 'summary'];
const TITLE_KEYS = ['title', 'name'];
const MEDIA_KEYS = ['photo', 'video', 'image_url', 'video_url', 'url', 'file_url', 'video_url', 'source_url', 'sourceUrl'];

/** The fields of a request: its JSON body, its form body, or its query. */
export function fieldsOf(req: RecordedRequest): RequestFields {
  if (req.json && typeof req.json === 'object') return req.json as Record<string, unknown>;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(req.text));
  return Object.fromEntries(req.url.searchParams);
}

/** The first string under any of `keys`, searched breadth-first through nested objects. */
function find(value: unknown, keys: string[], depth = 0): string | undefined {
  if (!value || typeof value !== 'object' || depth > 4) return undefined;
  const obj = value as Record<string, unknown>;
  for (const k of keys) if (typeof obj[k] === 'string' && obj[k] !== '') return obj[k] as string;
  for (const v of Object.values(obj)) {
    const found = find(v, keys, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The inbox entry of a request its network's simulator read as a post, a part of one, or a change of one. */
export function inboxEntry(network: PlatformName, req: RecordedRequest, reading: InboxReading, fields: RequestFields, at: string | undefined): InboxEntry {
  const received_at = at ?? new Date().toISOString();
  if (reading.kind !== 'post') {
    const edited = reading.kind === 'edited';
    return {
      network, received_at, method: req.method, path: req.path,
      text: edited ? find(fields, TEXT_KEYS) ?? null : null, title: edited ? find(fields, TITLE_KEYS) ?? null : null, media: [], reply: false, change: reading.kind,
    };
  }
  const media = [find(fields, MEDIA_KEYS)].filter((m): m is string => !!m && /^https?:\/\//.test(m));
  const reply = find(fields, ['in_reply_to_id', 'reply', 'in_reply_to_tweet_id', 'thing_id', 'parent', 'reply_to_id']) !== undefined ||
    /comments$/.test(req.path) || (!!fields.reply && typeof fields.reply === 'object');
  return {
    network: reading.network ?? network, received_at, method: req.method, path: req.path,
    text: find(fields, TEXT_KEYS) ?? null, title: find(fields, TITLE_KEYS) ?? null, media, reply,
  };
}

/** The inbox page of these entries (newest first): what each simulated network received. */
export function inboxPage(entries: InboxEntry[]): string {
  const anchored = new Set<string>();
  // the newest entry of each network is its anchor: a post's url in sandbox mode is <inbox>#<network>
  const anchor = (n: string) => (anchored.has(n) ? '' : (anchored.add(n), ` id="${escapeHtml(n)}"`));
  const rows = entries.map((e) => `<li${anchor(e.network)}><p><b>${escapeHtml(e.network)}</b>${e.reply ? ' (reply)' : ''}${e.change ? ` (${e.change})` : ''} · <time>${escapeHtml(e.received_at)}</time></p>` +
    (e.title ? `<p><b>${escapeHtml(e.title)}</b></p>` : '') + (e.text ? `<p>${escapeHtml(e.text)}</p>` : '') +
    (e.media.length ? `<ul>${e.media.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '') + '</li>').join('');
  return page('Sandbox inbox', `<main><h1>Sandbox inbox</h1><p>What the simulated networks received, newest first. ` +
    `Nothing here left this machine.</p>${rows ? `<ol>${rows}</ol>` : '<p>Nothing yet: publish a post and reload this page.</p>'}</main>`);
}
