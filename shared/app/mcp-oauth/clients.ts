import * as z from 'zod';
import type { Deps } from '../deps';
import type { OAuthClientRecord } from '../../ports/mcp-oauth';
import { newId } from '../../domain/ids';
import { MCP_SCOPE, OAuthProtocolError } from './authorization-server';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI an app may use (OAuth 2.1 §2.3.1, RFC 8252): https; http only to a loopback host (native apps and
 * local tools); or a private-use scheme in reverse-domain form (com.example.app:/callback). No fragment.
 */
export function isAllowedRedirectUri(value: string): boolean {
  let u: URL;
  try { u = new URL(value); } catch { return false; }
  if (u.hash) return false;
  if (u.protocol === 'https:') return true;
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname);
  return /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/.test(u.protocol);
}

const RedirectUri = z.string().max(2000).refine(isAllowedRedirectUri, 'redirect URIs must be https, http on a loopback host, or a private-use scheme like com.example.app:/cb');

/**
 * Client metadata of dynamic registration (RFC 7591 §2). Fields this server does not use are ignored, as RFC 7591
 * requires; the answer lists exactly what was registered. Only public clients (PKCE, no secret) are registered.
 */
export const ClientRegistrationBody = z.object({
  redirect_uris: z.array(RedirectUri).min(1).max(10),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.url({ protocol: /^https$/, error: 'client_uri must be an https URL' }).max(2000).optional(),
  logo_uri: z.url({ protocol: /^https$/, error: 'logo_uri must be an https URL' }).max(2000).optional(),
  token_endpoint_auth_method: z.literal('none', { error: 'only public clients are registered: token_endpoint_auth_method none (PKCE)' }).optional(),
  grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
  response_types: z.array(z.literal('code')).optional(),
  scope: z.string().max(200).optional(),
});

/** The client metadata document at a URL client_id (Client ID Metadata Documents). */
const ClientMetadataDocument = ClientRegistrationBody.extend({ client_id: z.string().url() });

const clientView = (c: OAuthClientRecord) => ({
  client_id: c.client_id,
  client_id_issued_at: Math.floor(Date.parse(c.created_at) / 1000),
  client_name: c.client_name,
  redirect_uris: c.redirect_uris,
  ...(c.client_uri ? { client_uri: c.client_uri } : {}),
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  scope: MCP_SCOPE,
});

const invalidMetadata = (error: z.ZodError) =>
  new OAuthProtocolError(400, 'invalid_client_metadata', error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));

/** Dynamic client registration (RFC 7591): a public client with its redirect URIs; answers 201 with its client_id. */
export async function registerClient(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, body: unknown) {
  const parsed = ClientRegistrationBody.safeParse(body);
  if (!parsed.success) throw invalidMetadata(parsed.error);
  const m = parsed.data;
  const now = deps.clock.now();
  const record: OAuthClientRecord = {
    client_id: newId('mcpc', now),
    client_name: m.client_name ?? new URL(m.redirect_uris[0]!).host ?? 'Unnamed app',
    redirect_uris: m.redirect_uris,
    kind: 'registered',
    ...(m.client_uri ? { client_uri: m.client_uri } : {}),
    created_at: new Date(now).toISOString(),
  };
  await deps.mcpOAuth.putClient(record);
  return clientView(record);
}

const MAX_DOCUMENT_BYTES = 5_000;

/** A client_id that is an https URL names its own metadata document (Client ID Metadata Documents). */
export const isMetadataDocumentId = (clientId: string) => /^https:\/\/[^/]+\/.+/.test(clientId);

/**
 * The client behind a client_id: a registered one from the store, or a metadata document fetched from the
 * client_id URL through the address-checked fetch (public addresses only), whose client_id must be that URL.
 */
export async function resolveClient(deps: Pick<Deps, 'mcpOAuth' | 'media' | 'clock'>, clientId: string): Promise<OAuthClientRecord | undefined> {
  if (!isMetadataDocumentId(clientId)) return deps.mcpOAuth.getClient(clientId);
  let json: unknown;
  try {
    const res = await deps.media.fetch(clientId, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    if (res.status !== 200 || Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) return undefined;
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const doc = ClientMetadataDocument.safeParse(json);
  if (!doc.success || doc.data.client_id !== clientId) return undefined;
  return {
    client_id: clientId, client_name: doc.data.client_name ?? new URL(clientId).host, redirect_uris: doc.data.redirect_uris,
    kind: 'metadata_document', ...(doc.data.client_uri ? { client_uri: doc.data.client_uri } : {}), created_at: new Date(deps.clock.now()).toISOString(),
  };
}
