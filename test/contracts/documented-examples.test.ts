/**
 * The Threads and Google Business Profile simulators answer as the networks' documentation shows
 * (test/contracts/documented-examples.json, with the page of each example): same fields, same types, documented
 * values. Requests go to the loopback simulators only.
 */
import docs from './documented-examples.json';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { GoogleBusinessFake } from '../../shared/networks/google_business/simulator';

/** The shape of a JSON value: its type, and for objects and arrays the shapes inside (values left out). */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shape(x)]));
  return typeof v;
}

describe('Threads simulator', () => {
  const fake = new ThreadsFake();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  const get = async (path: string, q: Record<string, string>) =>
    (await fetch(`${fake.url}/v1.0${path}?${new URLSearchParams({ ...q, access_token: fake.token })}`)).json() as Promise<Record<string, unknown>>;

  it('threads_publishing_limit answers the documented example\'s shape, with the documented quota', async () => {
    const body = await get(`/${fake.userId}/threads_publishing_limit`, { fields: 'quota_usage,config' });
    expect(shape(body)).toEqual(shape(docs.threads.publishing_limit.example));
    expect((body.data as Array<{ config: unknown }>)[0]!.config).toEqual(docs.threads.publishing_limit.example.data[0]!.config);
  });

  it('a container\'s status answers the documented example\'s shape and one of the documented statuses', async () => {
    const created = await (await fetch(`${fake.url}/v1.0/${fake.userId}/threads`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ media_type: 'TEXT', text: 'Fresh bread', access_token: fake.token }),
    })).json() as { id: string };
    const body = await get(`/${created.id}`, { fields: 'status,error_message' });
    expect(shape(body)).toEqual(shape(docs.threads.container_status.example));
    expect(docs.threads.container_status.statuses).toContain(body.status);
  });
});

describe('Google Business Profile simulator', () => {
  const fake = new GoogleBusinessFake();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('localPosts.create answers a LocalPost: documented fields only, a documented name, state and topic type, RFC 3339 times', async () => {
    const res = await fetch(`${fake.url}/v4/accounts/1100/locations/2201/localPosts`, {
      method: 'POST', headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ languageCode: 'en', topicType: 'STANDARD', summary: 'Fresh bread', callToAction: { actionType: 'LEARN_MORE', url: 'https://example.com' } }),
    });
    expect(res.status).toBe(200);
    const post = await res.json() as Record<string, unknown>;
    const doc = docs.google_business.local_post;
    expect(Object.keys(post).filter((k) => !doc.fields.includes(k))).toEqual([]);
    const namePattern = new RegExp(`^${doc.name.replace(/\{[a-z_]+\}/g, '[^/]+')}$`);
    expect(post.name).toMatch(namePattern);
    expect(doc.states).toContain(post.state);
    expect(doc.topicTypes).toContain(post.topicType);
    for (const t of [post.createTime, post.updateTime]) expect(new Date(String(t)).toISOString()).toBe(t);
    expect(String(post.searchUrl)).toMatch(/^https:\/\//);
  });
});
