import { responseViolation, routeFor } from '../support/response-contract';

/** The check the e2e client runs on every answer: the route's declared responses, as in the OpenAPI document. */
describe('response contract of the e2e client', () => {
  const json = 'application/json; charset=utf-8';

  it('finds the route of a path, a literal path before a templated one, the query ignored', () => {
    expect(routeFor('GET', '/api/posts/pst_123')?.id).toBe('get-post');
    expect(routeFor('GET', '/api/posts?limit=5')?.id).toBe('get-posts');
    expect(routeFor('GET', '/no/such/path')).toBeUndefined();
  });

  it('an answer its route declares passes: the route\'s own, and a middleware error the document adds', () => {
    expect(responseViolation('GET', '/api/posts/pst_1', 404, json, JSON.stringify({ error: 'Post not found', code: 'not_found' }))).toBeUndefined();
    expect(responseViolation('GET', '/api/me?verbose=1', 400, json, JSON.stringify({ error: 'Unknown field', code: 'unknown_field', fields: ['verbose'] }))).toBeUndefined();
  });

  it('a body the declared schema rejects is named with the route and the field', () => {
    expect(responseViolation('GET', '/api/posts/pst_1', 404, json, JSON.stringify({ message: 'nope' })))
      .toMatch(/^GET \/api\/posts\/pst_1 answered 404 with a body route get-post does not declare: (error|code): /);
    expect(responseViolation('GET', '/api/me', 200, json, '{}')).toMatch(/route get-me does not declare/);
  });

  it('a status the route does not declare is named, with those it does', () => {
    expect(responseViolation('GET', '/api/me', 418, json, '{}')).toMatch(/^GET \/api\/me answered 418, which route get-me does not declare \(200, /);
  });

  it('paths outside the route table and non-JSON answers are not judged', () => {
    expect(responseViolation('GET', '/sandbox/x/2/users/me', 200, json, '{}')).toBeUndefined();
    expect(responseViolation('GET', '/api/posts/pst_1', 404, 'text/html', '<p>x</p>')).toBeUndefined();
  });
});
