import {
  codePointLength, graphemeLength, hashtagsOf, mastodonLength, measure, textLimit, textProblems, utf8Length, xWeightedLength,
} from '../../shared/domain/text-length';
import { sentencesOf, shortenToFit, splitIntoPosts } from '../../shared/domain/text-split';
import { fitDraft, fitsPost } from '../../shared/app/ai/fit';
import { networkBrief } from '../../shared/app/ai/brief';
import { shapeOf } from '../../shared/app/ai/run';
import { createDiscordAdapter } from '../../shared/networks/discord';
import { networkLimits } from '../../shared/networks/descriptor-limits';

/** Each network's text rule, from the registry (its folder's limits.ts). */
const rule = networkLimits().textRule;

const FAMILY = '👨‍👩‍👧‍👦'; // 7 code points joined by ZWJ, 11 UTF-16 units, 25 bytes
const FLAG = '🇫🇷'; // two regional indicators
const THUMB = '👍🏽'; // emoji + skin tone
const COMBINING = 'e\u0301'; // e + combining acute: é in NFD
const CJK = '日本語のテキスト';

describe('the length validator: hard text in each unit', () => {
  it('ZWJ sequences, flags and skin tones are one grapheme; code points and UTF-16 count their parts', () => {
    expect([graphemeLength(FAMILY), codePointLength(FAMILY), FAMILY.length, utf8Length(FAMILY)]).toEqual([1, 7, 11, 25]);
    expect([graphemeLength(FLAG), codePointLength(FLAG), FLAG.length]).toEqual([1, 2, 4]);
    expect([graphemeLength(THUMB), codePointLength(THUMB)]).toEqual([1, 2]);
    expect(graphemeLength(`${FAMILY} ${FLAG} ${THUMB}`)).toBe(5);
  });

  it('graphemeLength (which segments only the non-ASCII runs) counts exactly as Intl.Segmenter, on 20,000 random mixes', () => {
    const seg = new Intl.Segmenter('en', { granularity: 'grapheme' });
    const pieces = ['a', 'e', ' ', '\n', '\r', '\r\n', '\t', '\u0301', '\u200d', '\ufe0f', '👍', '🏽', '🇫', '🇷', '日', '\u0600', '1', 'ก', '\u0e33', '\u1100', '\u1161', '\u11a8', '👨', '\u0915', '\u094d', '.'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      for (let k = 1 + Math.floor(rnd() * 12); k > 0; k--) t += pieces[Math.floor(rnd() * pieces.length)];
      const expected = [...seg.segment(t)].length;
      if (graphemeLength(t) !== expected) expect({ t, n: graphemeLength(t) }).toEqual({ t, n: expected });
    }
  });

  it('combining marks: one grapheme, two code points; X counts the NFC form (1)', () => {
    expect([graphemeLength(COMBINING), codePointLength(COMBINING), xWeightedLength(COMBINING)]).toEqual([1, 2, 1]);
    expect(graphemeLength('Zalgo: Z\u0351\u036b\u0343')).toBe(8);
    expect(xWeightedLength('Ю\u0301')).toBe(2); // no precomposed form: base + mark, both weight 1
  });

  it('X: CJK and emoji weigh 2 (an emoji sequence 2 as a whole), Latin 1', () => {
    expect(xWeightedLength(CJK)).toBe(16);
    expect(xWeightedLength(`${FAMILY}${FLAG}${THUMB}`)).toBe(6);
    expect(xWeightedLength('a'.repeat(280))).toBe(280);
    expect(xWeightedLength('“quotes” – dash…')).toBe(17); // “ ” – weigh 1, … (U+2026) 2
  });

  it('X: every link counts 23, with or without a scheme; trailing punctuation is not part of the link', () => {
    expect(xWeightedLength(`https://example.com/${'p'.repeat(300)}`)).toBe(23);
    expect(xWeightedLength('http://a.co')).toBe(23);
    expect(xWeightedLength('see acme.io.')).toBe(4 + 23 + 1);
    expect(xWeightedLength('www.example.org/path?q=1')).toBe(23);
    expect(xWeightedLength('mail bob@example.com')).toBe(5 + 15); // an email address is not a link
    expect(xWeightedLength('@acme #launch')).toBe(13); // mentions and hashtags are plain text
  });

  it('Mastodon: http(s) links 23, a remote mention as its local part, bare domains as typed', () => {
    expect(mastodonLength(`https://example.com/${'p'.repeat(100)}`)).toBe(23);
    expect(mastodonLength('hi @bob@mastodon.example')).toBe(7);
    expect(mastodonLength('acme.io/launch')).toBe(14);
    expect(mastodonLength(`${FAMILY}${COMBINING}`)).toBe(2);
  });

  it('hashtags: letters of any script and digits, not inside words or URLs', () => {
    expect(hashtagsOf('#one #två #三 a#not #123 #tag_two, https://x.example/#frag')).toEqual(['#one', '#två', '#三', '#123', '#tag_two']);
  });

  it('limits depend on the post: Telegram captions 1024, TikTok photo posts 4000, a Mastodon instance its own', () => {
    expect([textLimit(rule('telegram')), textLimit(rule('telegram'), { media: ['image'] })]).toEqual([4096, 1024]);
    expect([textLimit(rule('tiktok'), { media: ['video'] }), textLimit(rule('tiktok'), { media: ['image', 'image'] })]).toEqual([2200, 4000]);
    expect([textLimit(rule('mastodon')), textLimit(rule('mastodon'), { instanceLimit: 11_000 })]).toEqual([500, 11_000]);
    expect(textLimit(rule('x'))).toBe(280);
    expect(measure(rule('youtube').unit, 'é'.repeat(10))).toBe(20); // bytes
  });

  it('textProblems names every text over its limit, the byte ceiling, titles, hashtags and unsupported fields', () => {
    expect(textProblems('x', rule('x'), { text: '字'.repeat(140), thread: ['ok', '字'.repeat(141)], first_comment: 'fine' })).toEqual([
      expect.objectContaining({ field: 'thread.2', kind: 'too_long', length: 282, limit: 280 }),
    ]);
    // 300 graphemes fit Bluesky, but 300 families are 7500 bytes (lexicon limit 3000)
    expect(textProblems('bluesky', rule('bluesky'), { text: FAMILY.repeat(300) })).toEqual([expect.objectContaining({ kind: 'too_many_bytes', length: 7500, limit: 3000 })]);
    expect(textProblems('bluesky', rule('bluesky'), { text: 'a'.repeat(300) })).toEqual([]);
    expect(textProblems('instagram', rule('instagram'), { text: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') })).toEqual([expect.objectContaining({ kind: 'too_many_hashtags', length: 31, limit: 30 })]);
    expect(textProblems('youtube', rule('youtube'), { text: 'ok', title: 't'.repeat(101) })).toEqual([expect.objectContaining({ field: 'title', length: 101, limit: 100 })]);
    expect(textProblems('telegram', rule('telegram'), { text: 'a', thread: ['b'], first_comment: 'c' }).map((p) => p.kind)).toEqual(['thread_unsupported', 'comment_unsupported']);
    expect(textProblems('telegram', rule('telegram'), { text: 'a'.repeat(1025) }, { media: ['video'] })[0].message).toBe('telegram allows 1024 characters per post; the text has 1025');
  });

  it('Discord and Slack append a video link to the text: a draft for a post with a video leaves room for it', () => {
    const videoUrl = 'https://cdn.example.com/launch-video.mp4';
    expect(textLimit(rule('discord'), { media: ['video'], videoUrl })).toBe(2000 - 1 - videoUrl.length);
    expect(textLimit(rule('slack'), { media: ['video'], videoUrl })).toBe(40_000 - 1 - videoUrl.length);
    expect(textLimit(rule('telegram'), { media: ['video'], videoUrl })).toBe(1024);
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i + 1} about the launch.`).join(' ');
    const draft = fitDraft(networkBrief('discord', rule('discord'), shapeOf([{ url: videoUrl }])), rule('discord'), { text: long }, shapeOf([{ url: videoUrl }]));
    const content = { text: draft.text, media: [{ url: videoUrl, kind: 'video' as const }], thread: [], send_key: 'k' };
    expect(createDiscordAdapter().check(content, {})).toBeUndefined();
    expect(codePointLength(`${draft.text}\n${videoUrl}`)).toBeLessThanOrEqual(2000);
  });

  it('every unit measures the empty text as 0', () => {
    for (const unit of ['graphemes', 'x_weighted', 'mastodon', 'utf16', 'code_points', 'utf8_bytes'] as const) expect(measure(unit, '')).toBe(0);
  });
});

describe('thread splitting and shortening', () => {
  const xFits = fitsPost(rule('x'), {});
  const words = (s: string) => s.split(/\s+/).filter(Boolean);

  it('splits at sentence boundaries: every post fits and ends a sentence; nothing is lost', () => {
    const text = Array.from({ length: 20 }, (_, i) => `Sentence ${i + 1} says something useful about the launch.`).join(' ');
    const posts = splitIntoPosts(text, xFits)!;
    expect(posts.length).toBeGreaterThan(2);
    for (const p of posts) { expect(xWeightedLength(p)).toBeLessThanOrEqual(280); expect(p).toMatch(/launch\.$/); }
    expect(posts.join(' ')).toBe(text);
  });

  it('a sentence longer than a post is split between words, never inside a word or a link', () => {
    const links = Array.from({ length: 12 }, (_, i) => `https://acme.example/${'section'.repeat(i % 3 + 1)}/${i}`);
    const text = `Links without a full stop ${links.join(' and then ')} end here`;
    const posts = splitIntoPosts(text, fitsPost(rule('bluesky'), {}))!;
    expect(posts.length).toBeGreaterThan(1);
    for (const p of posts) expect(graphemeLength(p)).toBeLessThanOrEqual(300);
    expect(posts.flatMap(words)).toEqual(words(text));
    for (const l of links) expect(posts.filter((p) => words(p).includes(l))).toHaveLength(1);
  });

  it('a link whose domain has capitals is not a sentence boundary', () => {
    expect(sentencesOf('Visit Example.COM/Path today. Then relax.').map((s) => s.text)).toEqual(['Visit Example.COM/Path today.', 'Then relax.']);
  });

  it('a single word or link longer than a post cannot be split: undefined, never a cut', () => {
    expect(splitIntoPosts(`See https://acme.example/${'a'.repeat(400)}`, fitsPost(rule('bluesky'), {}))).toBeUndefined();
    expect(splitIntoPosts('x'.repeat(301), fitsPost(rule('bluesky'), {}))).toBeUndefined();
  });

  it('CJK without spaces splits after 。 and, inside a long sentence, between dictionary words', () => {
    const sentence = '私たちは新しいロケットを発表しました。';
    const posts = splitIntoPosts(sentence.repeat(20), xFits)!;
    for (const p of posts) { expect(xWeightedLength(p)).toBeLessThanOrEqual(280); expect(p.endsWith('。')).toBe(true); }
    expect(posts.join('')).toBe(sentence.repeat(20));
    const long = '東京都の新しい宇宙センターでロケットの打ち上げ試験を行う予定です'.repeat(8);
    const parts = splitIntoPosts(long, xFits)!;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe(long);
  });

  it('keeps paragraph breaks inside a post', () => {
    expect(splitIntoPosts('One.\n\nTwo.', xFits)).toEqual(['One.\n\nTwo.']);
    expect(sentencesOf('One.\n\nTwo.\nThree.').map((s) => s.sep)).toEqual(['\n\n', '\n', ' ']);
  });

  it('shortens to whole sentences, else whole words and an ellipsis', () => {
    const fits = (s: string) => s.length <= 30;
    expect(shortenToFit('First sentence here. Second one is longer.', fits)).toBe('First sentence here.');
    expect(shortenToFit('A very long first sentence without any end', fits)).toBe('A very long first sentence…');
    expect(shortenToFit('x'.repeat(40), fits)).toBeUndefined();
    expect(shortenToFit('日本語のとても長い文章です日本語のとても長い文章です日本語のとても長い文章です', (s) => s.length <= 12)).toMatch(/^日本語.*…$/);
  });
});
