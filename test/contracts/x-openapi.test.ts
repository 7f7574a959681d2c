import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { xApiViolations } from './x-openapi';

const req = (method: string, url: string, body?: unknown, contentType = 'application/json'): RecordedRequest => {
  const u = new URL(url, 'http://127.0.0.1');
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { method, path: u.pathname, url: u, headers: body === undefined ? {} : { 'content-type': contentType }, body: Buffer.from(text), text, json: typeof body === 'object' ? body : undefined };
};

describe("X's OpenAPI check the X fakes run", () => {
  it('accepts a post with media, a reply and a quote as X documents them', async () => {
    expect(await xApiViolations(req('POST', '/2/tweets', { text: 'hi', media: { media_ids: ['1860000000000000001'] }, reply: { in_reply_to_tweet_id: '1870000000000000001' } }))).toEqual([]);
    expect(await xApiViolations(req('POST', '/2/tweets', { text: 'hi', quote_tweet_id: '1870000000000000001' }))).toEqual([]);
    expect(await xApiViolations(req('DELETE', '/2/tweets/1870000000000000001'))).toEqual([]);
    expect(await xApiViolations(req('GET', '/2/media/upload?command=STATUS&media_id=1860000000000000001'))).toEqual([]);
  });

  it('names a field X does not take, a malformed id and a wrong enum value', async () => {
    expect(await xApiViolations(req('POST', '/2/tweets', { text: 'hi', media_ids: ['1'] }))).toEqual(['body must NOT have additional properties (media_ids)']);
    expect(await xApiViolations(req('POST', '/2/tweets', { text: 'hi', quote_tweet_id: 'abc' }))).toEqual([expect.stringContaining('body/quote_tweet_id must match pattern')]);
    expect(await xApiViolations(req('POST', '/2/media/upload/initialize', { media_type: 'image/png', total_bytes: 10, media_category: 'image' })))
      .toEqual([expect.stringContaining('body/media_category must be equal to one of the allowed values')]);
  });

  it('checks query parameters, path parameters and multipart fields', async () => {
    expect(await xApiViolations(req('GET', '/2/users/150/tweets?max_results=500&tweet.fields=created_at,bogus'))).toEqual([
      expect.stringContaining('query max_results must be <= 100'),
      expect.stringContaining('query tweet.fields/1 must be equal to one of the allowed values'),
    ]);
    expect(await xApiViolations(req('GET', '/2/users/me?colour=red'))).toEqual(['query colour is not a parameter of /2/users/me']);
    expect(await xApiViolations(req('DELETE', '/2/tweets/not-an-id'))).toEqual([expect.stringContaining('path id must match pattern')]);
    const append = async (segment: string): Promise<RecordedRequest> => {
      const form = new FormData();
      form.append('segment_index', segment);
      form.append('media', new Blob([Buffer.alloc(4)]));
      const r = new Request('http://127.0.0.1/', { method: 'POST', body: form });
      const body = Buffer.from(await r.arrayBuffer());
      return { ...req('POST', '/2/media/upload/1860000000000000001/append'), headers: { 'content-type': r.headers.get('content-type')! }, body, text: body.toString() };
    };
    expect(await xApiViolations(await append('0'))).toEqual([]);
    expect(await xApiViolations(await append('1000'))).toEqual(expect.arrayContaining(['form/segment_index must match pattern "^[0-9]{1,3}$"']));
  });

  it('an endpoint outside the document is named; the OAuth token endpoint and media files are not checked', async () => {
    expect(await xApiViolations(req('POST', '/2/statuses/update', { status: 'hi' }))).toEqual(['POST /2/statuses/update is no operation of the document']);
    expect(await xApiViolations(req('POST', '/2/oauth2/token', 'grant_type=refresh_token', 'application/x-www-form-urlencoded'))).toEqual([]);
    expect(await xApiViolations(req('GET', '/media/a.png'))).toEqual([]);
  });
});
