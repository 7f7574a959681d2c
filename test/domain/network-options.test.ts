import { networkLimits } from '../../shared/networks/descriptor-limits';
import { contentFor } from '../../shared/app/publish/content';
import { PostRequestSchema, validatePost } from '../../shared/app/publish/request';
import { BadRequestError } from '../../shared/domain/errors';

/** per_platform options of Threads, Pinterest and Google Business Profile: what reaches the adapter, what is refused. */

const valid = (body: unknown) => validatePost(PostRequestSchema.parse(body), networkLimits());
const refusal = (body: unknown): string => {
  try {
    valid(body);
  } catch (err) {
    if (err instanceof BadRequestError) return err.message;
    throw err;
  }
  throw new Error('expected a 400');
};

describe('accepted', () => {
  it('threads reply_to and first_comment; pinterest board_id, link and a video cover; google_business event, offer and button', () => {
    const v = valid({
      platforms: ['threads', 'pinterest', 'google_business'], text: 't', photo_url: 'https://cdn.example.com/p.jpg',
      per_platform: {
        threads: { reply_to: '17900000000000042', first_comment: 'more below', topic_tag: ' Sourdough Baking ' },
        pinterest: { board_id: '549755885176', link: 'https://example.com/r', thumbnail_url: 'https://cdn.example.com/c.jpg' },
        google_business: { event: { title: 'Tasting', start: '2026-12-18T18:00', end: '2026-12-18T21:00' }, call_to_action: { type: 'BOOK', url: 'https://example.com/b' } },
      },
    });
    expect(contentFor(v.payload, 'threads', 'pst_1')).toMatchObject({ options: { reply_to: '17900000000000042', topic_tag: 'Sourdough Baking' }, first_comment: 'more below' });
    expect(contentFor(v.payload, 'pinterest', 'pst_1').options).toEqual({ board_id: '549755885176', link: 'https://example.com/r', thumbnail_url: 'https://cdn.example.com/c.jpg' });
    expect(contentFor(v.payload, 'google_business', 'pst_1').options).toEqual({
      event: { title: 'Tasting', start: '2026-12-18T18:00', end: '2026-12-18T21:00' }, call_to_action: { type: 'BOOK', url: 'https://example.com/b' },
    });
  });

  it('a topic tag is counted in characters: 50 emoji fit', () => {
    const v = valid({ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: '🍞'.repeat(50) } } });
    expect(contentFor(v.payload, 'threads', 'pst_1').options).toEqual({ topic_tag: '🍞'.repeat(50) });
  });

  it('a post may name all 19 networks at once', () => {
    const names = ['telegram', 'bluesky', 'mastodon', 'discord', 'wordpress', 'devto', 'hashnode', 'slack', 'nostr', 'tiktok', 'youtube', 'reddit', 'linkedin', 'facebook', 'instagram', 'x', 'threads', 'pinterest', 'google_business'];
    expect(valid({ platforms: names, text: 't' }).platforms).toEqual(names);
  });
});

describe('refused (400 naming the network and the option)', () => {
  it.each([
    [{ platform: 'threads', text: 't', per_platform: { threads: { reply_to: 'https://www.threads.net/@a/post/Cabc' } } }, 'per_platform.threads.reply_to: not a threads post: send the media id of the Threads post (digits; a threads.net link names a shortcode the API cannot reply to)'],
    [{ platform: 'x', text: 't', per_platform: { x: { board_id: '1' } } }, 'per_platform.x.board_id: supported on pinterest only'],
    [{ platform: 'bluesky', text: 't', per_platform: { bluesky: { topic_tag: 'Baking' } } }, 'per_platform.bluesky.topic_tag: supported on threads only'],
    [{ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: 'Node.js' } } }, 'per_platform.threads.topic_tag: a Threads topic tag cannot contain a period (.) or an ampersand (&)'],
    [{ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: 'Salt & Pepper' } } }, 'per_platform.threads.topic_tag: a Threads topic tag cannot contain a period (.) or an ampersand (&)'],
    [{ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: 'x'.repeat(51) } } }, 'per_platform.threads.topic_tag: a Threads topic tag has 1 to 50 characters; this one has 51'],
    [{ platform: 'pinterest', text: 't', photo_url: 'https://a.example/p.jpg', per_platform: { pinterest: { link: 'javascript:alert(1)' } } }, 'per_platform.pinterest.link: send an http(s) link'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { offer: { coupon_code: 'X' } } } }, 'per_platform.google_business.offer: an offer needs event {title, start, end} for its title and validity'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { event: { title: 'e', start: '2026-12-01', end: '2026-12-02' }, offer: {}, call_to_action: { type: 'SHOP', url: 'https://e.com' } } } }, 'per_platform.google_business.call_to_action: an offer post shows no button: drop call_to_action, or send an event post'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { call_to_action: { type: 'BOOK' } } } }, 'per_platform.google_business.call_to_action: BOOK needs url, an http(s) link'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { call_to_action: { type: 'CALL', url: 'https://e.com' } } } }, 'per_platform.google_business.call_to_action: CALL uses the location\'s phone number: drop url'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { event: { title: 'e', start: '2026-12-02', end: '2026-12-01' } } } }, 'per_platform.google_business.event: the event ends before it starts'],
    [{ platform: 'google_business', text: 't', per_platform: { google_business: { event: { title: 'e', start: '2026-02-30', end: '2026-03-01' } } } }, 'per_platform.google_business.event: start 2026-02-30 is not a real date'],
    [{ platform: 'pinterest', text: 't', photo_url: 'https://a.example/p.jpg', per_platform: { pinterest: { event: { title: 'e', start: '2026-12-01', end: '2026-12-02' } } } }, 'per_platform.pinterest.event: supported on google_business only'],
  ])('%#', (body, message) => {
    expect(refusal(body)).toBe(message);
  });

  it('malformed values are refused by the schema (board ids are digits; event times are local YYYY-MM-DD[THH:MM])', () => {
    expect(() => PostRequestSchema.parse({ platform: 'pinterest', text: 't', per_platform: { pinterest: { board_id: 'cakes' } } })).toThrow();
    expect(() => PostRequestSchema.parse({ platform: 'google_business', text: 't', per_platform: { google_business: { event: { title: 'e', start: '2026-12-01T18:00:00Z', end: '2026-12-02' } } } })).toThrow();
    expect(() => PostRequestSchema.parse({ platform: 'google_business', text: 't', per_platform: { google_business: { call_to_action: { type: 'DONATE', url: 'https://e.com' } } } })).toThrow();
    expect(() => PostRequestSchema.parse({ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: 'x'.repeat(101) } } })).toThrow();
    expect(() => PostRequestSchema.parse({ platform: 'threads', text: 't', per_platform: { threads: { topic_tag: '   ' } } })).toThrow();
  });
});
