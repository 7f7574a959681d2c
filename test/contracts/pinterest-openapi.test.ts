import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { pinterestApiViolations } from './pinterest-openapi';

const req = (method: string, url: string, body?: unknown): RecordedRequest => {
  const u = new URL(url, 'http://127.0.0.1');
  const text = body === undefined ? '' : JSON.stringify(body);
  return { method, path: u.pathname, url: u, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: Buffer.from(text), text, json: body };
};
const pin = (over: Record<string, unknown> = {}) => ({ board_id: '549755885175', description: 'hi', media_source: { source_type: 'image_url', url: 'https://cdn.example.com/a.jpg' }, ...over });

describe("Pinterest's OpenAPI check the Pinterest fakes run", () => {
  it('accepts a Pin by image URL, a video Pin, the board listing and a media registration as documented', async () => {
    expect(await pinterestApiViolations(req('POST', '/v5/pins', pin({ title: 'Cakes', alt_text: 'A cake', link: 'https://example.com' })))).toEqual([]);
    expect(await pinterestApiViolations(req('POST', '/v5/pins', pin({ media_source: { source_type: 'video_id', media_id: '5000001', cover_image_url: 'https://cdn.example.com/c.jpg' } })))).toEqual([]);
    expect(await pinterestApiViolations(req('GET', '/v5/boards/549755885175/pins?page_size=250&bookmark=abc'))).toEqual([]);
    expect(await pinterestApiViolations(req('POST', '/v5/media', { media_type: 'video' }))).toEqual([]);
  });

  it('names what the document refuses: a title over 100 characters, a page over 250, an unknown media type', async () => {
    expect(await pinterestApiViolations(req('POST', '/v5/pins', pin({ title: 'x'.repeat(101) })))).toEqual(expect.arrayContaining([expect.stringContaining('body/title must NOT have more than 100 characters')]));
    expect(await pinterestApiViolations(req('GET', '/v5/boards/549755885175/pins?page_size=251'))).toEqual([expect.stringContaining('query page_size must be <= 250')]);
    expect(await pinterestApiViolations(req('POST', '/v5/media', { media_type: 'image' }))).toEqual(expect.arrayContaining([expect.stringContaining('body/media_type must be equal to one of the allowed values')]));
  });

  it('the token endpoint and the media store upload are not checked; an undocumented path is named', async () => {
    expect(await pinterestApiViolations(req('POST', '/v5/oauth/token'))).toEqual([]);
    expect(await pinterestApiViolations(req('POST', '/upload'))).toEqual([]);
    expect(await pinterestApiViolations(req('GET', '/v5/pins/feed'))).toEqual(['GET /v5/pins/feed is no operation of the document']);
  });

  it("checks a simulator's answer against the documented response of its status", async () => {
    const list = req('GET', '/v5/boards/549755885175/pins');
    expect(await pinterestApiViolations.answer(list, { status: 200, body: { items: [{ id: '813000000000001', created_at: '2026-11-27T06:00:00-00:00', title: null }], bookmark: null } })).toEqual([]);
    expect(await pinterestApiViolations.answer(list, { status: 200, body: { pins: [] } })).toEqual(["answer 200 must have required property 'items'"]);
    expect(await pinterestApiViolations.answer(list, { status: 200, body: { items: [{ id: 'abc' }] } })).toEqual([expect.stringContaining('answer 200/items/0/id must match pattern')]);
  });
});
