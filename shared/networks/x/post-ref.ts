/*
 * A link to an existing post, as users paste it (reply_to, quote): parsed the same way at request time (the
 * descriptor's postRef in network.ts) and in the adapter (the ids the network needs).
 */

/** An X post: a numeric id, or an x.com / twitter.com status link. */
export function xPostId(ref: string): string | undefined {
  const t = ref.trim();
  if (/^\d{1,20}$/.test(t)) return t;
  const m = /^https:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i(?:\/web)?)\/status\/(\d{1,20})(?:[/?#].*)?$/.exec(t);
  return m?.[1];
}
