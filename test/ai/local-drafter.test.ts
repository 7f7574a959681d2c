import { keywordHashtags, LocalDrafter } from '../../shared/adapters/local/local-drafter';
import { buildJob, networkBrief } from '../../shared/app/ai/brief';
import { parseAnswer } from '../../shared/app/ai/answer';
import type { PlatformName } from '../../shared/domain/platforms';
import { networkLimits } from '../../shared/networks/descriptor-limits';

/** Each network's text rule, from the registry (its folder's limits.ts). */
const rule = networkLimits().textRule;

const brief = (platforms: PlatformName[], days = 1, prompt = 'We open a second bakery in Kreuzberg. Fresh sourdough every morning from seven.') =>
  ({ prompt, networks: platforms.map((p) => networkBrief(p, rule(p), {})), days, link: 'https://bakery.example/kreuzberg' });

describe('the local drafter (no model)', () => {
  it('is deterministic: the same brief gives the same answer', async () => {
    const d = new LocalDrafter(networkLimits());
    const b = brief(['x', 'devto', 'instagram']);
    expect((await d.draft(buildJob(b))).text).toBe((await new LocalDrafter(networkLimits()).draft(buildJob(b))).text);
  });

  it('hashtags from the key words: frequent words, then names, then longer words; none on chat and article networks', async () => {
    expect(keywordHashtags('We open a second bakery in Kreuzberg. Fresh sourdough every morning.', 2)).toEqual(['#Kreuzberg', '#Sourdough']);
    expect(keywordHashtags('Acme ships rockets. Acme ships fast. See https://acme.example/ships', 2)).toEqual(['#Ships', '#Acme']);
    const [day] = parseAnswer((await new LocalDrafter(networkLimits()).draft(buildJob(brief(['x', 'telegram', 'devto', 'linkedin'])))).text, brief(['x', 'telegram', 'devto', 'linkedin']));
    expect(day.x.text).toMatch(/#Kreuzberg #Sourdough$/);
    expect(day.linkedin.text).toMatch(/#Kreuzberg #Sourdough #\w+$/);
    expect(day.telegram.text).not.toContain('#');
    expect(day.devto).toEqual({
      text: 'We open a second bakery in Kreuzberg. Fresh sourdough every morning from seven.\n\n[Read more](https://bakery.example/kreuzberg)',
      title: 'We open a second bakery in Kreuzberg',
    });
  });

  it('a week: seven days, each on its own angle', async () => {
    const b = brief(['mastodon'], 7);
    const days = parseAnswer((await new LocalDrafter(networkLimits()).draft(buildJob(b))).text, b);
    expect(days.map((d) => d.mastodon.text.split(':')[0])).toEqual([
      'We open a second bakery in Kreuzberg. Fresh sourdough every morning from seven.\n\nhttps', 'Why it matters', 'How it works', 'A tip', 'Behind the scenes', 'Questions we hear', 'In short',
    ]);
  });
});
