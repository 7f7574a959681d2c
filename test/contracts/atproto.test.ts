import { atprotoCid } from '../../shared/networks/sandbox-kit/atproto-cid';
import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { atprotoViolations } from './atproto';

const createRecord = (record: Record<string, unknown>): RecordedRequest => {
  const json = { repo: 'did:plc:alice', collection: 'app.bsky.feed.post', record };
  const text = JSON.stringify(json);
  return { method: 'POST', path: '/xrpc/com.atproto.repo.createRecord', url: new URL('http://127.0.0.1/'), headers: {}, body: Buffer.from(text), text, json };
};
const post = (over: Record<string, unknown> = {}) => ({ $type: 'app.bsky.feed.post', text: 'hi', createdAt: '2026-11-27T08:00:00.000Z', ...over });
const image = (ref: string) => ({ $type: 'app.bsky.embed.images', images: [{ image: { $type: 'blob', ref: { $link: ref }, mimeType: 'image/png', size: 10 }, alt: '' }] });

describe('the atproto lexicon check the Bluesky fakes run', () => {
  it('accepts a post with an image blob whose ref is a real CID', () => {
    expect(atprotoViolations(createRecord(post({ embed: image(atprotoCid('raw', 'a')) })))).toEqual([]);
  });

  it('names what breaks the lexicon: a placeholder blob ref, a strong ref without a CID, a facet without a feature', () => {
    expect(atprotoViolations(createRecord(post({ embed: image('bafkblob1') })))).toEqual([expect.stringContaining('embed/images/0/image should be a blob ref')]);
    expect(atprotoViolations(createRecord(post({ reply: { root: { uri: 'at://did:plc:a/app.bsky.feed.post/x', cid: 'c1' }, parent: { uri: 'at://did:plc:a/app.bsky.feed.post/x', cid: 'c1' } } }))))
      .toEqual([expect.stringContaining('reply/root/cid must be a cid string')]);
    expect(atprotoViolations(createRecord(post({ facets: [{ index: { byteStart: 0, byteEnd: 2 } }] })))).toEqual([expect.stringContaining('facets/0 must have the property "features"')]);
  });

  it('checks the createRecord input too (repo must be an at-identifier)', () => {
    const req = createRecord(post());
    (req.json as { repo: string }).repo = 'not a did';
    expect(atprotoViolations(req)).toEqual([expect.stringContaining('repo')]);
  });

  it('the fakes name blobs and records with CIDs of the right codec', () => {
    expect(atprotoCid('raw', 'x')).toMatch(/^bafkrei[a-z2-7]{52}$/);
    expect(atprotoCid('dag-cbor', 'x')).toMatch(/^bafyrei[a-z2-7]{52}$/);
    expect(atprotoCid('raw', 'x')).not.toBe(atprotoCid('raw', 'y'));
  });
});
