import { networkLimits } from '../../shared/networks/descriptor-limits';
import { precheck, requiredFields } from '../../shared/app/publish/checks';
import { contentFor } from '../../shared/app/publish/content';
import { validatePost } from '../../shared/app/publish/request';
import type { Connection } from '../../shared/ports/publishing';

const content = (req: Parameters<typeof validatePost>[0]) => contentFor(validatePost(req, networkLimits()).payload, 'reddit', 'pst_01JD0000000000000000000000');

describe('Reddit rules', () => {
  it('a Reddit post needs a subreddit (per-network subreddit_required with what and fix)', () => {
    expect(requiredFields('reddit', content({ platform: 'reddit', text: 'hi' }))).toMatchObject({
      platform: 'reddit', ok: false, code: 'subreddit_required', what: 'Reddit posts need a subreddit.', fix: expect.stringContaining('without r/'),
    });
    expect(requiredFields('reddit', content({ platform: 'reddit', text: 'hi', subreddit: 'typescript' }))).toBeUndefined();
    expect(requiredFields('x', content({ platform: 'x', text: 'hi' }))).toBeUndefined();
  });

  it('while Reddit is unavailable (available: false) it answers platform_unavailable first', async () => {
    const connection = { platform: 'reddit', status: 'active', credentials_enc: '' } as Connection;
    const res = await precheck({ cipher: { encrypt: async (s) => s, decrypt: async (s) => s }, networkLimits: networkLimits() }, 'reddit', connection, content({ platform: 'reddit', text: 'hi' }));
    expect(res).toMatchObject({ ok: false, code: 'platform_unavailable' });
  });
});
