/*
 * A link to an existing post, as users paste it (reply_to, quote): parsed the same way at request time (the
 * descriptor's postRef in network.ts) and in the adapter (the ids the network needs).
 */

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
