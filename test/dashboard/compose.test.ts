import { networkLimits } from '../../shared/networks/descriptor-limits';
import { postRequestOf, runAtOf } from '../../shared/app/dashboard/compose';
import { ComposeForm } from '../../shared/api/dashboard-schemas';
import { validatePost } from '../../shared/app/publish/request';

/** Compose's form as the REST bodies: the same request POST /api/post and POST /api/schedule take. */
describe('the Compose form', () => {
  const form = (f: Record<string, unknown>) => ComposeForm.parse({ action: 'check', brand_id: 'brd_1', ...f });

  test('a picked local time is read in the brand\'s time zone, with its offset (summer and winter)', () => {
    expect(runAtOf(form({ run_at: '2026-07-01T09:30' }), 'Europe/Berlin')).toBe('2026-07-01T09:30:00+02:00');
    expect(runAtOf(form({ run_at: '2026-12-01T09:30' }), 'Europe/Berlin')).toBe('2026-12-01T09:30:00+01:00');
    expect(runAtOf(form({ run_at: '2026-12-01T09:30' }), 'America/New_York')).toBe('2026-12-01T09:30:00-05:00');
  });
  test('the next free slot wins over a time; no time is no run_at; a broken one is 400 invalid_run_at', () => {
    expect(runAtOf(form({ run_at: '2026-07-01T09:30', next_slot: 'on' }), 'UTC')).toBe('next_slot');
    expect(runAtOf(form({ run_at: '' }), 'UTC')).toBeUndefined();
    expect(() => runAtOf(form({ run_at: '2026-13-45T99:00' }), 'UTC')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_run_at' }));
  });
  test('the post fields become the API body, checked by the API\'s own validation', () => {
    const body = postRequestOf(form({ platforms: ['telegram', 'bluesky'], text: 'Hi', title: '' }), [{ url: 'https://cdn.example/a.jpg', type: 'image' }]);
    expect(body).toEqual({ platforms: ['telegram', 'bluesky'], brand_id: 'brd_1', text: 'Hi', media: [{ url: 'https://cdn.example/a.jpg', type: 'image' }] });
    expect(validatePost(body, networkLimits()).platforms).toEqual(['telegram', 'bluesky']);
    expect(() => validatePost(postRequestOf(form({ platforms: ['telegram'], text: '{"a":1}' }), []), networkLimits())).toThrow(expect.objectContaining({ code: 'caption_is_json' }));
  });
  test('an unknown network or field is refused by the form itself', () => {
    expect(ComposeForm.safeParse({ action: 'check', brand_id: 'b', platforms: ['myspace'] }).success).toBe(false);
    expect(ComposeForm.safeParse({ action: 'check', brand_id: 'b', surprise: '1' }).success).toBe(false);
    expect(ComposeForm.safeParse({ action: 'delete', brand_id: 'b' }).success).toBe(false);
  });
});
