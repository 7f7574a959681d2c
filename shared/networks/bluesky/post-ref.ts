/*
 * A link to an existing post, as users paste it (reply_to, quote): parsed the same way at request time (the
 * descriptor's postRef in network.ts) and in the adapter (the ids the network needs).
 */

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
