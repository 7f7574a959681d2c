import { createLinkedinAdapter, createLinkedinProvider, LINKEDIN_VERSION } from '../../shared/networks/linkedin';
import type { OAuthApp } from '../../shared/ports/oauth';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { testContext } from './context';
import { oauthApp, signInThrough } from './oauth-support';

/** LinkedIn organisation pages (opt-in LINKEDIN_ORGANIZATIONS): in the picker, and as the post's author. */

const fake = new LinkedinFake();
let app: OAuthApp;
const member = 'urn:li:person:abc123XYZ';

beforeAll(async () => {
  await fake.start();
  app = oauthApp(fake, 'linkedin');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.organizations = [
    { id: '2414183', name: 'Acme Corp', role: 'ADMINISTRATOR', state: 'APPROVED' },
    { id: '5550001', name: 'Acme Labs', role: 'ADMINISTRATOR', state: 'APPROVED' },
    { id: '7770001', name: 'Not Mine', role: 'ADMINISTRATOR', state: 'REQUESTED' },
  ];
});

it('with organisations on: the Community Management scopes are asked for, and accounts() lists the member then each administered page', async () => {
  const provider = createLinkedinProvider({ apiBase: fake.url, authBase: fake.url, organizations: true });
  const url = new URL(await provider.authorizeUrl({ app, state: 'st-org' }));
  expect(url.searchParams.get('scope')).toBe('openid profile w_member_social w_organization_social rw_organization_admin r_organization_social');
  const tokens = await signInThrough(provider, app, { state: 'st-org' });
  fake.server.requests.length = 0;
  expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([
    { id: member, handle: 'Ada Lovelace', credentials: { author_urn: member } },
    { id: 'urn:li:organization:2414183', handle: 'Acme Corp', credentials: { author_urn: 'urn:li:organization:2414183' } },
    { id: 'urn:li:organization:5550001', handle: 'Acme Labs', credentials: { author_urn: 'urn:li:organization:5550001' } },
  ]);
  expect(fake.calls).toEqual(['GET /v2/userinfo', 'GET /rest/organizationAcls', 'GET /rest/organizations/2414183', 'GET /rest/organizations/5550001']);
  const acl = fake.requests[1];
  expect(Object.fromEntries(acl.url.searchParams)).toEqual({ q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED' });
  expect(acl.headers['linkedin-version']).toBe(LINKEDIN_VERSION);
  expect(acl.headers['x-restli-protocol-version']).toBe('2.0.0');
  expect(acl.headers.authorization).toBe(`Bearer ${tokens.access_token}`);
});

it('off by default: the member scopes only and no organisation lookup', async () => {
  const provider = createLinkedinProvider({ apiBase: fake.url, authBase: fake.url });
  expect(new URL(await provider.authorizeUrl({ app, state: 's' })).searchParams.get('scope')).toBe('openid profile w_member_social');
  const tokens = await signInThrough(provider, app, { state: 's' });
  fake.server.requests.length = 0;
  expect(await provider.accounts(tokens, testContext({}).ctx)).toHaveLength(1);
  expect(fake.calls).toEqual(['GET /v2/userinfo']);
});

it('member post analytics on (LINKEDIN_POST_ANALYTICS): r_member_postAnalytics is asked for as well, with or without pages', async () => {
  const scope = async (o: { organizations?: boolean; postAnalytics?: boolean }) => new URL(await createLinkedinProvider({ apiBase: fake.url, authBase: fake.url, ...o }).authorizeUrl({ app, state: 's' })).searchParams.get('scope');
  expect(await scope({ postAnalytics: true })).toBe('openid profile w_member_social r_member_postAnalytics');
  expect(await scope({ postAnalytics: true, organizations: true })).toBe('openid profile w_member_social w_organization_social rw_organization_admin r_organization_social r_member_postAnalytics');
});

it('a page connection posts with the organisation as author (images owned by it too)', async () => {
  const adapter = createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  fake.media.set('a.png', { type: 'image/png', bytes: Buffer.from('PNG') });
  const org = 'urn:li:organization:2414183';
  const out = await adapter.publish({ text: 'Hiring!', media: [{ url: fake.mediaUrl('a.png'), kind: 'image', alt: 'Team photo' }], thread: [], send_key: 'k' },
    testContext({ access_token: fake.token(), author_urn: org }).ctx);
  expect(out).toMatchObject({ ok: true, status: 'published' });
  expect(fake.find('POST', '/rest/images')[0].json).toEqual({ initializeUploadRequest: { owner: org } });
  expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ author: org, content: { media: { id: 'urn:li:image:C4D1', altText: 'Team photo' } } });
});

describe('document posts (PDF carousels)', () => {
  const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20), Buffer.from('%%EOF')]);
  const adapter = () => createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  let token = '';
  const post = (document: { url: string; title: string }) => {
    token = fake.token();
    return adapter().publish({ text: 'Our Q3 in 8 slides', media: [], thread: [], send_key: 'k', options: { document } }, testContext({ access_token: token, author_urn: member }).ctx);
  };

  it('initializeUpload on the Documents API, PUT of the PDF bytes, then content.media {id, title}', async () => {
    fake.media.set('deck.pdf', { type: 'application/pdf', bytes: PDF });
    const out = await post({ url: fake.mediaUrl('deck.pdf'), title: 'Q3 results' });
    expect(out).toMatchObject({ ok: true, status: 'published' });
    expect(fake.calls).toEqual(['POST /rest/documents?action=initializeUpload', 'PUT /upload/document/1', 'POST /rest/posts']);
    expect(fake.find('POST', '/rest/documents')[0].json).toEqual({ initializeUploadRequest: { owner: member } });
    const put = fake.find('PUT', '/upload/document/1')[0];
    expect(put.headers.authorization).toBe(`Bearer ${token}`);
    expect(put.headers['content-type']).toBe('application/pdf');
    expect(put.body.equals(PDF)).toBe(true);
    expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ author: member, content: { media: { id: 'urn:li:document:D1', title: 'Q3 results' } } });
  });

  it('a document that cannot be downloaded → media_unreachable, nothing posted', async () => {
    const out = await post({ url: fake.mediaUrl('missing.pdf'), title: 'x' });
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    expect(fake.calls).toEqual([]);
  });
});
