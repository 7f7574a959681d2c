import { networkLimits } from '../../shared/networks/descriptor-limits';
import { contentFor } from '../../shared/app/publish/content';
import { PostRequestSchema, validatePost } from '../../shared/app/publish/request';
import { BadRequestError } from '../../shared/domain/errors';

/** per_platform post kinds: which network takes which option, the refusals, and what reaches the adapter. */

const valid = (body: unknown) => validatePost(PostRequestSchema.parse(body), networkLimits());
const refusal = (body: unknown): BadRequestError => {
  try {
    valid(body);
  } catch (err) {
    if (err instanceof BadRequestError) return err;
    throw err;
  }
  throw new Error('expected a 400');
};

describe('accepted options reach the adapter as content.options, alt text as media[].alt', () => {
  it('x poll, quote, reply_to; bluesky link_card; facebook reel; instagram story with a first comment', () => {
    const v = valid({
      platforms: ['x', 'bluesky', 'facebook', 'instagram'], text: 'hello https://example.com',
      per_platform: {
        x: { poll: { options: ['Yes', 'No'], duration_minutes: 60 }, reply_to: 'https://x.com/a/status/1' },
        bluesky: { link_card: true, quote: undefined },
        facebook: { reel: true, media: [{ url: 'https://cdn.example.com/r.mp4', type: 'video' }], first_comment: 'hi' },
        instagram: { story: true, media: [{ url: 'https://cdn.example.com/s.jpg', alt: 'unused on stories' }], first_comment: 'hey' },
      },
    });
    const c = (p: 'x' | 'bluesky' | 'facebook' | 'instagram') => contentFor(v.payload, p, 'pst_1');
    expect(c('x').options).toEqual({ poll: { options: ['Yes', 'No'], duration_minutes: 60 }, reply_to: 'https://x.com/a/status/1' });
    expect(c('bluesky').options).toEqual({ link_card: true });
    expect(c('facebook')).toMatchObject({ options: { reel: true }, first_comment: 'hi' });
    expect(c('instagram')).toMatchObject({ options: { story: true }, first_comment: 'hey', media: [{ url: 'https://cdn.example.com/s.jpg', kind: 'image', alt: 'unused on stories' }] });
  });

  it('photo_alt and media[].alt; an empty alt is left out', () => {
    const v = valid({ platform: 'mastodon', text: 't', photo_url: 'https://a.example/p.png', photo_alt: 'A photo', media: [{ url: 'https://a.example/q.png', alt: ' ' }] });
    expect(contentFor(v.payload, 'mastodon', 'pst_1').media).toEqual([
      { url: 'https://a.example/p.png', kind: 'image', alt: 'A photo' },
      { url: 'https://a.example/q.png', kind: 'image' },
    ]);
  });
});

describe('refusals (400 invalid_request naming the network and the option)', () => {
  it.each([
    [{ platform: 'mastodon', text: 't', per_platform: { mastodon: { quote: '123' } } }, 'per_platform.mastodon.quote: supported on bluesky, x only'],
    [{ platform: 'x', text: 't', per_platform: { x: { reply_to: 'https://bsky.app/profile/a/post/b' } } }, 'per_platform.x.reply_to: not a x post: send an x.com/<user>/status/<id> link or a numeric post id'],
    [{ platform: 'x', text: 't', photo_url: 'https://a.example/p.png', per_platform: { x: { poll: { options: ['a', 'b'], duration_minutes: 5 } } } }, 'per_platform.x.poll: an X post carries either a poll or media, not both'],
    [{ platform: 'x', text: 't', per_platform: { x: { poll: { options: ['Yes', 'yes'], duration_minutes: 5 } } } }, 'per_platform.x.poll: the poll options must differ'],
    [{ platform: 'facebook', text: 't', photo_url: 'https://a.example/p.png', per_platform: { facebook: { reel: true } } }, 'per_platform.facebook.reel: a reel is a video: send video_url or a video media item'],
    [{ platform: 'instagram', text: 't', media: [{ url: 'https://a.example/1.jpg' }, { url: 'https://a.example/2.jpg' }], per_platform: { instagram: { story: true } } }, 'per_platform.instagram.story: a story carries exactly one image or video; this post has 2 media items'],
    [{ platform: 'bluesky', text: 't', per_platform: { bluesky: { link_card: 'ftp://example.com' } } }, 'per_platform.bluesky.link_card: send true or an http(s) page URL'],
    [{ platform: 'telegram', text: 't', per_platform: { telegram: { first_comment: 'c' } } }, 'first_comment is supported on bluesky, mastodon, linkedin, facebook, instagram, x, threads only, not telegram'],
    [{ platform: 'linkedin', text: 't', photo_url: 'https://a.example/p.png', per_platform: { linkedin: { document: { url: 'https://a.example/d.pdf', title: 'Deck' } } } }, 'per_platform.linkedin.document: a LinkedIn document post carries the document only: drop the media'],
    [{ platform: 'x', text: 't', per_platform: { x: { document: { url: 'https://a.example/d.pdf', title: 'Deck' } } } }, 'per_platform.x.document: supported on linkedin only'],
    [{ platform: 'youtube', text: 't', video_url: 'https://a.example/v.mp4', per_platform: { youtube: { thumbnail_url: 'file:///etc/passwd' } } }, 'per_platform.youtube.thumbnail_url: send an http(s) link to a JPEG or PNG image'],
  ])('%#', (body, message) => {
    const err = refusal(body);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBe(message);
  });

  it('zod refuses malformed options and unknown fields (strict objects)', () => {
    expect(PostRequestSchema.safeParse({ platform: 'x', per_platform: { x: { poll: { options: ['only one'], duration_minutes: 5 } } } }).success).toBe(false);
    expect(PostRequestSchema.safeParse({ platform: 'x', per_platform: { x: { poll: { options: ['a', 'b'], duration_minutes: 4 } } } }).success).toBe(false);
    expect(PostRequestSchema.safeParse({ platform: 'x', per_platform: { x: { poll: { options: ['a', 'b'], duration_minutes: 5, multi: true } } } }).success).toBe(false);
    expect(PostRequestSchema.safeParse({ platform: 'x', media: [{ url: 'https://a/b.png', caption: 'c' }] }).success).toBe(false);
    expect(PostRequestSchema.safeParse({ platform: 'x', media: [{ url: 'https://a/b.png', alt: 'x'.repeat(5001) }] }).success).toBe(false);
    expect(PostRequestSchema.safeParse({ platform: 'facebook', per_platform: { facebook: { reel: false } } }).success).toBe(false);
  });
});
