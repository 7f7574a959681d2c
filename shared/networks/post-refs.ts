/**
 * Links to existing posts, as users paste them (reply_to, quote): parsed the same way at request time (validation)
 * and in the adapters (the ids the network needs).
 */

/** An X post: a numeric id, or an x.com / twitter.com status link. */
export function xPostId(ref: string): string | undefined {
  const t = ref.trim();
  if (/^\d{1,20}$/.test(t)) return t;
  const m = /^https:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i(?:\/web)?)\/status\/(\d{1,20})(?:[/?#].*)?$/.exec(t);
  return m?.[1];
}

/** A Bluesky post: its at:// URI, or a bsky.app link (profile handle or DID, post rkey). */
export function blueskyPostRef(ref: string): { actor: string; rkey: string } | undefined {
  const t = ref.trim();
  const at = /^at:\/\/([^/\s]+)\/app\.bsky\.feed\.post\/([A-Za-z0-9._:~-]{1,512})$/.exec(t);
  if (at) return { actor: at[1], rkey: at[2] };
  const web = /^https:\/\/bsky\.app\/profile\/([^/\s?#]+)\/post\/([A-Za-z0-9._:~-]{1,512})(?:[?#].*)?$/.exec(t);
  if (!web) return undefined;
  // a bad escape (%ff) names no profile: not a link to a post
  const actor = decodeOrUndefined(web[1]);
  return actor ? { actor, rkey: web[2] } : undefined;
}

const decodeOrUndefined = (s: string): string | undefined => {
  try { return decodeURIComponent(s); } catch { return undefined; }
};

/** A Mastodon status: a status id, or a status link (https://instance/@user/<id>, /users/<user>/statuses/<id>). */
export function mastodonStatusRef(ref: string): { host?: string; id: string } | undefined {
  const t = ref.trim();
  if (/^\d{1,30}$/.test(t)) return { id: t };
  let u: URL;
  try { u = new URL(t); } catch { return undefined; }
  if (u.protocol !== 'https:') return undefined;
  const m = /^\/(?:@[^/]+|users\/[^/]+\/statuses)\/(\d{1,30})\/?$/.exec(u.pathname);
  return m ? { host: u.host, id: m[1] } : undefined;
}

/** A Telegram message in the connected chat: a message id, or a t.me link (public `t.me/<chat>/<id>`, private `t.me/c/<n>/<id>`). */
export function telegramMessageRef(ref: string): { chat?: string; id: number } | undefined {
  const t = ref.trim();
  if (/^\d{1,12}$/.test(t)) return { id: Number(t) };
  const m = /^https:\/\/t\.me\/(c\/\d{1,20}|[A-Za-z][A-Za-z0-9_]{3,31})\/(?:\d{1,12}\/)?(\d{1,12})(?:[?#].*)?$/.exec(t);
  return m ? { chat: m[1], id: Number(m[2]) } : undefined;
}
