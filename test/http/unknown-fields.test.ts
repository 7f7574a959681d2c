import { z } from 'zod';
import { isOpenObject, knownFieldsAt, nearestName, unknownFieldError, unknownFieldsOf } from '../../shared/app/unknown-fields';
import { PostRequestSchema } from '../../shared/app/publish/request';
import { OAuthCallbackQuery } from '../../shared/api/oauth-schemas';
import { ScheduleRequestSchema } from '../../shared/app/schedule/request';

describe('unknown fields: names and nearest known names', () => {
  it('suggests the nearest known name for a likely typo, and nothing for a stranger', () => {
    expect(nearestName('idempotencykey', ['platform', 'idempotency_key', 'text'])).toBe('idempotency_key');
    expect(nearestName('Platforms', ['platform', 'platforms'])).toBe('platforms');
    expect(nearestName('txt', ['text', 'title'])).toBe('text');
    expect(nearestName('colour_scheme', ['text', 'title', 'media'])).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });

  it('finds the known names inside nested objects, arrays and records', () => {
    expect(knownFieldsAt(PostRequestSchema, [])).toEqual(expect.arrayContaining(['platform', 'platforms', 'idempotency_key', 'per_platform']));
    expect(knownFieldsAt(PostRequestSchema, ['per_platform', 'bluesky']).sort()).toEqual(['board_id', 'call_to_action', 'chars', 'document', 'event', 'first_comment', 'hashtags', 'limit', 'link', 'link_card', 'media', 'offer', 'playlist_id', 'poll', 'privacy_level', 'quote', 'reel', 'reply_to', 'story', 'text', 'thread', 'thumbnail_url', 'title', 'topic_tag']);
    expect(knownFieldsAt(PostRequestSchema, ['media', 0]).sort()).toEqual(['alt', 'type', 'url']);
    expect(knownFieldsAt(ScheduleRequestSchema, [])).toContain('run_at');
  });

  it('reports every unknown field of a strict schema by its path', () => {
    const res = PostRequestSchema.safeParse({ platform: 'telegram', text: 'x', titel: 'a', per_platform: { telegram: { txt: 'b' } }, media: [{ url: 'https://e.x/a.png', kind: 'image' }] });
    expect(res.success).toBe(false);
    const found = unknownFieldsOf(PostRequestSchema, res.error!);
    expect(found.map((f) => f.field).sort()).toEqual(['media.0.kind', 'per_platform.telegram.txt', 'titel']);
    expect(found.find((f) => f.field === 'titel')?.suggestion).toBe('title');
    expect(found.find((f) => f.field === 'per_platform.telegram.txt')?.suggestion).toBe('text');
    expect(found.find((f) => f.field === 'media.0.kind')?.suggestion).toBeUndefined();
  });

  it('open objects (a catchall) take any field; plain and strict objects do not', () => {
    expect(isOpenObject(OAuthCallbackQuery)).toBe(true);
    expect(isOpenObject(z.object({ a: z.string() }))).toBe(false);
    expect(isOpenObject(PostRequestSchema)).toBe(false);
  });

  it('answers 400 unknown_field with fields and suggestions', () => {
    const err = unknownFieldError([{ field: 'idempotencykey', suggestion: 'idempotency_key' }, { field: 'zzz' }]);
    expect(err.status).toBe(400);
    expect(err.toBody()).toMatchObject({ code: 'unknown_field', fields: ['idempotencykey', 'zzz'], suggestions: { idempotencykey: 'idempotency_key' } });
    expect(err.message).toContain('idempotencykey (did you mean idempotency_key?), zzz');
  });
});
