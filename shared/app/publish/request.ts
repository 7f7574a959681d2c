import * as z from 'zod';
import { BadRequestError } from '../../domain/errors';
import { isRecord } from '../../domain/values';
import { isPlatformName, PLATFORM_NAMES, type PlatformName } from '../../domain/platforms';
import { nearestName, unknownFieldError } from '../unknown-fields';
import { guessKind, type MediaRef, type PerPlatformDraft, type PostPayload, type ValidPost } from '../../domain/post';
import { checkOptions, PostOptionFields } from './options';
import type { NetworkLimits } from '../../ports/network-limits';

/** Spec §2.2: the body of POST /api/post (also the post fields of POST /api/schedule). */
const Url = z.string().trim().min(1).max(2048);
/** Alt text: the bound of the longest network limit (LinkedIn 4086); each network's own limit is checked per network. */
export const ALT_MAX = 5000;
const Alt = z.string().max(ALT_MAX).meta({
  description: 'Alt text (image description) sent where the network has a field for it: Bluesky alt, Mastodon description, X alt_text, ' +
    'LinkedIn altText, Instagram alt_text (images), Threads alt_text, Pinterest alt_text (images), WordPress alt_text, Discord attachment ' +
    'description. Telegram and Google Business Profile have no alt field: ' +
    'only the caption is sent. Over a network\'s own limit → bad_media for that network.',
  examples: ['A red bicycle leaning against a brick wall'],
});
const MediaItem = z.strictObject({ url: Url, type: z.enum(['image', 'video']).optional(), alt: Alt.optional() });
const Draft = z.strictObject({
  text: z.string().max(100_000).optional(),
  title: z.string().max(500).optional(),
  media: z.array(MediaItem).max(50).optional(),
  thread: z.array(z.string().max(100_000)).max(25).optional(),
  first_comment: z.string().max(10_000).optional(),
  ...PostOptionFields,
  // --- AI drafts: what POST /api/generate says about a draft, accepted so the draft can be sent back
  // verbatim; the service measures the text itself, so these are not used.
  hashtags: z.array(z.string().max(200)).max(100).optional(),
  chars: z.number().int().min(0).optional(),
  limit: z.number().int().min(0).optional(),
});

export const PostRequestSchema = z.object({
  platform: z.string().optional(),
  platforms: z.array(z.string()).max(PLATFORM_NAMES.length).optional(),
  /** unknown on purpose: a JSON object is refused with its own code (caption_is_json). */
  text: z.unknown().optional(),
  title: z.string().max(500).optional(),
  video_url: Url.optional(),
  photo_url: Url.optional(),
  /** Alt text of photo_url. */
  photo_alt: Alt.optional(),
  media: z.array(MediaItem).max(50).optional(),
  privacy: z.enum(['public', 'unlisted', 'private']).optional(),
  subreddit: z.string().trim().min(1).max(100).optional(),
  brand_id: z.string().max(100).optional(),
  per_platform: z.record(z.string(), Draft).optional(),
  idempotency_key: z.string().min(1).max(200).optional(),
}).strict().meta({ id: 'PostRequest' });
export type PostRequest = z.infer<typeof PostRequestSchema>;
export type { ValidPost };

function looksLikeJsonObject(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    return isRecord(JSON.parse(t));
  } catch {
    return false;
  }
}

const media = (items: Array<{ url: string; type?: 'image' | 'video'; alt?: string }> | undefined): MediaRef[] =>
  (items ?? []).map((m) => ({ url: m.url, kind: m.type ?? guessKind(m.url), ...(m.alt !== undefined && m.alt.trim() !== '' ? { alt: m.alt } : {}) }));

/**
 * Validates what zod cannot say alone (spec §2.2, decisions.md "Publishing"), in this order: platform xor
 * platforms, known and unrepeated networks, caption_is_json, per_platform keys and fields, something to publish.
 */
export function validatePost(req: PostRequest, networks: Pick<NetworkLimits, 'postRef' | 'optionNetworks'>): ValidPost {
  if ((req.platform === undefined) === (req.platforms === undefined)) {
    throw new BadRequestError('Send exactly one of platform (one network) or platforms (a list)');
  }
  const names = req.platforms ?? [req.platform!];
  if (names.length === 0) throw new BadRequestError('platforms is empty: name at least one network');
  const unknown = names.filter((n) => !isPlatformName(n));
  if (unknown.length) throw new BadRequestError(`Unknown network${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; GET /api/platforms lists them`, { details: { platforms: unknown } });
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length) throw new BadRequestError(`A network is named twice: ${[...new Set(repeated)].join(', ')}`, { details: { platforms: [...new Set(repeated)] } });
  const platforms = names as PlatformName[];

  if (req.text !== undefined && req.text !== null && typeof req.text !== 'string') {
    throw new BadRequestError('text must be plain text, not a JSON value', { code: 'caption_is_json' });
  }
  const text = typeof req.text === 'string' ? req.text : undefined;
  if (text !== undefined && looksLikeJsonObject(text)) throw new BadRequestError('text is a JSON object: send the caption as plain text', { code: 'caption_is_json' });
  if (text !== undefined && text.length > 100_000) throw new BadRequestError('text is longer than 100,000 characters');

  const per_platform: PostPayload['per_platform'] = {};
  const strangers = Object.keys(req.per_platform ?? {}).filter((name) => !isPlatformName(name) || !platforms.includes(name));
  if (strangers.length) {
    // per_platform keys are networks of this request: anything else is an unknown field (a typo would drop a draft)
    throw unknownFieldError(strangers.map((name) => ({ field: `per_platform.${name}`, suggestion: nearestName(name, platforms) })));
  }
  for (const [name, draft] of Object.entries(req.per_platform ?? {}) as Array<[PlatformName, NonNullable<PostRequest['per_platform']>[string]]>) {
    for (const option of ['thread', 'first_comment'] as const) {
      const takers = networks.optionNetworks(option);
      if (draft[option] && !takers.includes(name)) throw new BadRequestError(`${option} is supported on ${takers.join(', ')} only, not ${name}`, { details: { platforms: [name] } });
    }
    if (draft.text !== undefined && looksLikeJsonObject(draft.text)) throw new BadRequestError(`per_platform.${name}.text is a JSON object: send plain text`, { code: 'caption_is_json' });
    checkOptions(networks, name, draft, draft.media ? media(draft.media) : [
      ...(req.video_url ? [{ url: req.video_url, kind: 'video' as const }] : []),
      ...(req.photo_url ? [{ url: req.photo_url, kind: 'image' as const }] : []),
      ...media(req.media),
    ]);
    const { hashtags: _hashtags, chars: _chars, limit: _limit, ...fields } = draft;
    const d: PerPlatformDraft = { ...fields, media: draft.media ? media(draft.media) : undefined };
    per_platform[name] = d;
  }

  if (req.photo_alt !== undefined && !req.photo_url) throw new BadRequestError('photo_alt describes photo_url: send photo_url with it, or put alt on a media[] item');
  const photoAlt = req.photo_alt !== undefined && req.photo_alt.trim() !== '' ? { alt: req.photo_alt } : {};
  const payload: PostPayload = {
    text, title: req.title, privacy: req.privacy, subreddit: req.subreddit, per_platform,
    media: [
      ...(req.video_url ? [{ url: req.video_url, kind: 'video' as const }] : []),
      ...(req.photo_url ? [{ url: req.photo_url, kind: 'image' as const, ...photoAlt }] : []),
      ...media(req.media),
    ],
  };
  const anything = (text?.trim() ?? '') !== '' || payload.media.length > 0 ||
    Object.values(per_platform).some((d) => (d?.text?.trim() ?? '') !== '' || (d?.media?.length ?? 0) > 0);
  if (!anything) throw new BadRequestError('Nothing to publish: send text, a per_platform draft or media', { code: 'empty_text' });
  return { platforms, payload, brand_id: req.brand_id, idempotency_key: req.idempotency_key };
}
