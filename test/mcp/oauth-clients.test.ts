import { KEY_SCOPES } from '../../shared/domain/api-key';
import { startTestTable, testDeps, type TestTable } from '../support/deps';
import type { MediaGateway } from '../../shared/ports/media-gateway';
import type { Account } from '../../shared/ports/store';
import { checkAuthorizeRequest, decideAuthorization, UnredirectableAuthorizeError } from '../../shared/app/mcp-oauth/authorize';
import { isAllowedRedirectUri, registerClient } from '../../shared/app/mcp-oauth/clients';
import { callTool } from '../../functions/mcp/server';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

/** The failure object under the summary line of a failed tool result's text. */
const failureOf = (res: { content: unknown[] }) => {
  const text = (res.content[0] as { text: string }).text;
  return JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, unknown>;
};

const DOC_URL = 'https://agent.example/oauth/client.json';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A media gateway whose fetch serves one client metadata document (and records what was fetched). */
function documentServer(doc: unknown, status = 200) {
  const fetched: string[] = [];
  const fetch = (async (url: string) => {
    fetched.push(String(url));
    return new Response(typeof doc === 'string' ? doc : JSON.stringify(doc), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetched, media: { fetch } as unknown as MediaGateway };
}

const request = (o: Record<string, string> = {}) => ({
  response_type: 'code', client_id: DOC_URL, redirect_uri: 'https://agent.example/cb', code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 'st', ...o,
});

describe('Client ID Metadata Documents', () => {
  it('a URL client_id is resolved from its document through the address-checked fetch', async () => {
    const server = documentServer({ client_id: DOC_URL, client_name: 'Agent by URL', redirect_uris: ['https://agent.example/cb'] });
    const { deps } = testDeps(table, { media: server.media });
    const checked = await checkAuthorizeRequest(deps, request());
    expect(server.fetched).toEqual([DOC_URL]);
    expect(checked).toMatchObject({ ok: true, client: { client_id: DOC_URL, client_name: 'Agent by URL', kind: 'metadata_document' } });
    const account = { id: 'acc_cimd', email: 'cimd@example.com', plan: 'starter', verified: true } as unknown as Account;
    const back = new URL(await decideAuthorization(deps, account, request(), true));
    expect(back.origin + back.pathname).toBe('https://agent.example/cb');
    expect(back.searchParams.get('code')).toMatch(/^mcp_code_/);
    expect((await deps.mcpOAuth.listApps('acc_cimd')).map((a) => a.client_name)).toEqual(['Agent by URL']);
  });

  it('refuses a document for another client_id, an unknown redirect URI, a bad document or a failed fetch', async () => {
    const cases = [
      documentServer({ client_id: 'https://other.example/client.json', client_name: 'X', redirect_uris: ['https://agent.example/cb'] }),
      documentServer({ client_id: DOC_URL, client_name: 'X', redirect_uris: ['https://elsewhere.example/cb'] }),
      documentServer({ client_id: DOC_URL, redirect_uris: ['http://not-loopback.example/cb'] }),
      documentServer('not json'),
      documentServer({ client_id: DOC_URL, redirect_uris: ['https://agent.example/cb'] }, 404),
    ];
    for (const server of cases) {
      const { deps } = testDeps(table, { media: server.media });
      await expect(checkAuthorizeRequest(deps, request())).rejects.toBeInstanceOf(UnredirectableAuthorizeError);
    }
  });
});

describe('registration and the authorization request', () => {
  it('redirect URIs: https, loopback http, private-use schemes; never other http, fragments or javascript', () => {
    expect(['https://a.example/cb', 'http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9/cb', 'com.example.app:/cb'].every(isAllowedRedirectUri)).toBe(true);
    expect(['http://a.example/cb', 'https://a.example/cb#x', 'javascript:alert(1)', 'data:text/html,x', 'not a url'].some(isAllowedRedirectUri)).toBe(false);
  });

  it('every error before consent is a page, never a redirect to the app (RFC 9700 §4.11.2); plain PKCE and foreign resources are refused', async () => {
    const { deps } = testDeps(table);
    const client = await registerClient(deps, { client_name: 'Reg', redirect_uris: ['http://127.0.0.1:9999/cb'] });
    const base = { ...request(), client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9999/cb' };
    const errorOf = async (q: Record<string, string>) => {
      try {
        await checkAuthorizeRequest(deps, q as never);
        return 'ok';
      } catch (err) {
        return err instanceof UnredirectableAuthorizeError ? err.error : String(err);
      }
    };
    expect(await errorOf(base)).toBe('ok');
    expect(await errorOf({ ...base, code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(await errorOf({ ...base, response_type: 'token' })).toBe('unsupported_response_type');
    expect(await errorOf({ ...base, scope: 'admin' })).toBe('invalid_scope');
    expect(await errorOf({ ...base, resource: 'https://other.example/mcp' })).toBe('invalid_target');
    await expect(checkAuthorizeRequest(deps, { ...base, redirect_uri: 'http://127.0.0.1:9999/other' })).rejects.toBeInstanceOf(UnredirectableAuthorizeError);
    await expect(checkAuthorizeRequest(deps, { ...base, client_id: 'mcpc_unknown' })).rejects.toBeInstanceOf(UnredirectableAuthorizeError);
  });
});

describe('MCP rate limits', () => {
  it('each tool call counts on the caller\'s own requests-a-minute counter (an AI app is not its account\'s key)', async () => {
    const { deps } = testDeps(table, {}, { frozenClock: true });
    const account = { id: 'acc_rl', email: 'rl@example.com', plan: 'free', verified: true } as unknown as Account;
    const app = { deps, principal: { account, actor: { kind: 'app' as const, id: 'app_rl' }, scopes: [...KEY_SCOPES] } };
    for (let i = 0; i < 60; i++) expect((await callTool(app, 'list_platforms', {}, 'r')).isError).toBeFalsy();
    const limited = await callTool(app, 'list_platforms', {}, 'r');
    expect(limited.isError).toBe(true);
    expect(failureOf(limited)).toMatchObject({ code: 'rate_limited', retry_after: expect.any(Number), fix: expect.stringContaining('retry_after') });
    const key = { deps, principal: { account, actor: { kind: 'key' as const, id: 'key_rl' }, scopes: [...KEY_SCOPES] } };
    expect((await callTool(key, 'list_platforms', {}, 'r')).isError).toBeFalsy();
  });

  it('each tool needs the scope of the REST route it wraps: a read-only key lists brands but cannot publish or create', async () => {
    const { deps } = testDeps(table, {}, { frozenClock: true });
    const account = { id: 'acc_scope', email: 'scope@example.com', plan: 'free', verified: true } as unknown as Account;
    const reader = { deps, principal: { account, actor: { kind: 'key' as const, id: 'key_reader' }, scopes: ['read' as const] } };
    expect((await callTool(reader, 'list_brands', {}, 'r')).isError).toBeFalsy();
    for (const [tool, args, scope] of [
      ['post_to_social', { platform: 'telegram', text: 'hi' }, 'publish'],
      ['create_brand', { name: 'Acme' }, 'manage'],
    ] as const) {
      const refused = await callTool(reader, tool, args, 'r');
      expect(refused.isError).toBe(true);
      expect(failureOf(refused)).toMatchObject({ code: 'key_scope', scope });
    }
  });
});
