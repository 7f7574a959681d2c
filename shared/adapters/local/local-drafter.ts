import type { DraftJob, DraftProvider, ModelReply, NetworkBrief } from '../../ports/ai';
import type { NetworkLimits } from '../../ports/network-limits';
import { graphemeLength, measure, utf8Length } from '../../domain/text-length';
import { sentencesOf, shortenToFit, splitIntoPosts } from '../../domain/text-split';

/**
 * The deterministic local drafter (`npm start`'s default provider, `provider: "local"`): no model, no network. It
 * shapes the prompt into each network's form from the brief alone: the prompt's sentences (a different angle each
 * day of a week), the link, hashtags from the prompt's key words, a title where the network shows one, a thread
 * split where the text is longer than one post, and a short article for the article networks. Same brief, same
 * answer. It answers the JSON a model is asked for, so the use case treats every provider alike.
 */
export const LOCAL_DRAFTER_MODEL = 'local-drafter-1';

const STOP_WORDS = new Set(('a an and are as at be been but by can do for from has have how in into is it its just more most '
  + 'new not of on or our out so than that the their them then there these they this to up us was we were what when '
  + 'which who will with you your about after all also any because before being both each every get got here like '
  + 'make many much must need now only other over same should some such very via way while would yours today week').split(' '));

/** Angles of the seven days of a week (day 1 states the subject as given). */
const ANGLES = ['', 'Why it matters', 'How it works', 'A tip', 'Behind the scenes', 'Questions we hear', 'In short'];

/**
 * Up to `n` key words of the prompt as hashtags: the most frequent first, then names (capitalised inside a
 * sentence), then longer words, then the first seen.
 */
export function keywordHashtags(prompt: string, n: number): string[] {
  const counts = new Map<string, { count: number; name: boolean; first: number; word: string }>();
  const text = prompt.replace(/https?:\/\/\S+/g, ' ');
  let i = 0;
  for (const m of text.matchAll(/[\p{L}][\p{L}\p{M}\p{N}]{3,}/gu)) {
    const w = m[0];
    const key = w.toLowerCase();
    if (STOP_WORDS.has(key)) continue;
    const before = text.slice(0, m.index).trimEnd();
    const name = /^\p{Lu}/u.test(w) && before !== '' && !/[.!?:]$/.test(before);
    const c = counts.get(key);
    if (c) { c.count++; c.name ||= name; } else counts.set(key, { count: 1, name, first: i++, word: w });
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || Number(b.name) - Number(a.name) || b.word.length - a.word.length || a.first - b.first)
    .slice(0, n)
    .map((c) => `#${c.word[0].toUpperCase()}${c.word.slice(1)}`);
}

function hashtagCount(n: NetworkBrief): number {
  if (n.article || n.platform === 'discord' || n.platform === 'slack' || n.platform === 'telegram') return 0;
  if (n.platform === 'instagram' || n.platform === 'tiktok') return 5;
  return n.platform === 'linkedin' ? 3 : 2;
}

/** A post fits the brief's limit and, where the network has one, its byte ceiling (`maxBytes` of its text rule). */
function fits(n: NetworkBrief, maxBytes: number | undefined) {
  return (text: string) => measure(n.unit, text) <= n.limit && (maxBytes === undefined || utf8Length(text) <= maxBytes);
}

/** One network's draft for one day. */
function draftFor(n: NetworkBrief, maxBytes: number | undefined, body: string, link: string | undefined, tags: string[]) {
  const withLink = link && !body.includes(link) ? `${body}\n\n${link}` : body;
  const tagLine = tags.length ? `\n\n${tags.join(' ')}` : '';
  const out: { text: string; title?: string; thread?: string[] } = { text: '' };
  if (n.title) {
    const first = sentencesOf(body)[0]?.text ?? body;
    const titleLimit = Math.min(n.title_limit ?? 100, 100);
    out.title = shortenToFit(first.replace(/\s+/g, ' ').replace(/[.!?]+$/u, ''), (t) => graphemeLength(t) <= titleLimit) ?? first.slice(0, 1);
  }
  if (n.article) {
    out.text = `${body}${link && !body.includes(link) ? `\n\n[Read more](${link})` : ''}`;
    return out;
  }
  const fit = fits(n, maxBytes);
  if (fit(withLink + tagLine)) { out.text = withLink + tagLine; return out; }
  if (n.thread) {
    const posts = splitIntoPosts(withLink + tagLine, fit) ?? [shortenToFit(withLink, fit) ?? ''];
    [out.text, ...out.thread] = [posts[0], ...posts.slice(1)];
    if (!out.thread?.length) delete out.thread;
    return out;
  }
  // keep the link and the hashtags; shorten the words before them
  const tail = (link && !body.includes(link) ? `\n\n${link}` : '') + tagLine;
  const head = shortenToFit(body, (t) => fit(t + tail));
  out.text = head ? head + tail : shortenToFit(withLink + tagLine, fit) ?? '';
  return out;
}

export class LocalDrafter implements DraftProvider {
  readonly name = 'local' as const;
  readonly model = LOCAL_DRAFTER_MODEL;

  /** `limits`: the networks' text rules (the byte ceiling a brief does not carry). */
  constructor(private readonly limits: Pick<NetworkLimits, 'textRule'>) {}

  async draft(job: DraftJob): Promise<ModelReply> {
    const { brief } = job;
    const prompt = brief.prompt.replace(/[ \t]+/g, ' ').trim();
    const tags = keywordHashtags(prompt, 5);
    const posts = Array.from({ length: brief.days }, (_, i) => {
      const angle = brief.days > 1 ? ANGLES[i % ANGLES.length] : '';
      const body = angle ? `${angle}: ${prompt}` : prompt;
      const drafts = Object.fromEntries(brief.networks.map((n) => [n.platform, draftFor(n, this.limits.textRule(n.platform).maxBytes, body, brief.link, tags.slice(0, hashtagCount(n)).filter((t) => !body.includes(t)))]));
      return { day: i + 1, drafts };
    });
    const text = JSON.stringify({ posts });
    return { text, usage: { input_tokens: 0, output_tokens: 0 } };
  }
}
