import { markedText } from '../../infra/local/sandbox/answers';

/**
 * The sandbox's `sandbox:429` answers once per post, then lets the retry through: the refusal is keyed on the text
 * that holds the mark, so a retry whose body changes (Bluesky's record has a fresh createdAt each try) is the same post.
 */
describe('sandbox:429 clears on the retry', () => {
  const bluesky = (createdAt: string) => JSON.stringify({ repo: 'did:plc:x', collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', text: 'Busy sandbox:429', createdAt } });

  it('a Bluesky retry with a new createdAt is keyed as the same post; another text is not', () => {
    expect(markedText(bluesky('2026-11-27T06:00:00.000Z'))).toBe(markedText(bluesky('2026-11-27T06:00:02.000Z')));
    expect(markedText(bluesky('2026-11-27T06:00:00.000Z'))).not.toBe(markedText(bluesky('2026-11-27T06:00:00.000Z').replace('Busy', 'Other')));
  });

  it('form bodies (Telegram) key on the marked field; a body without a mark is itself', () => {
    expect(markedText('chat_id=%40x&text=Hi+sandbox%3A429&date=1')).toBe(markedText('chat_id=%40x&text=Hi+sandbox%3A429&date=2'));
    expect(markedText('plain body')).toBe('plain body');
  });
});
