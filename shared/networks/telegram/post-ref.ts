/*
 * A link to an existing post, as users paste it (reply_to, quote): parsed the same way at request time (the
 * descriptor's postRef in network.ts) and in the adapter (the ids the network needs).
 */

/** A Telegram message in the connected chat: a message id, or a t.me link (public `t.me/<chat>/<id>`, private `t.me/c/<n>/<id>`). */
export function telegramMessageRef(ref: string): { chat?: string; id: number } | undefined {
  const t = ref.trim();
  if (/^\d{1,12}$/.test(t)) return { id: Number(t) };
  const m = /^https:\/\/t\.me\/(c\/\d{1,20}|[A-Za-z][A-Za-z0-9_]{3,31})\/(?:\d{1,12}\/)?(\d{1,12})(?:[?#].*)?$/.exec(t);
  return m ? { chat: m[1], id: Number(m[2]) } : undefined;
}
