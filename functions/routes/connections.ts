import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as p from '../../shared/api/publish-schemas';
import * as o from '../../shared/api/oauth-schemas';
import { E, std } from './errors';
import { OAUTH_PLATFORMS } from '../../shared/domain/platforms';

/** The Connections routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const connectionsRoutes = {
  postConnect: {
    id: 'post-connect', method: 'POST', path: '/api/connect', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt'], networks: true,
    summary: 'Connect a credential network: the credentials are checked against the network, then stored encrypted',
    body: p.ConnectBody, timeoutSeconds: 29,
    responses: { 200: { description: 'Connected', schema: p.ConnectResponse }, 400: E('invalid_credentials, oauth_platform, brand_required'), 503: E('network_unavailable'), ...std },
  },
  getConnections: {
    id: 'get-connections', method: 'GET', path: '/api/connections', tag: 'Connections', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'What is connected, per brand (never the credentials)',
    responses: { 200: { description: 'Connections', schema: p.ConnectionsResponse }, ...std },
  },
  deleteConnection: {
    id: 'delete-connection', method: 'DELETE', path: '/api/connections/{id}', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Disconnect a network',
    params: s.IdParams,
    responses: { 200: { description: 'Deleted' }, 404: E('not_found'), ...std },
  },
  getConnectHealth: {
    id: 'get-connect-health', method: 'GET', path: '/api/connect/{platform}/health', tag: 'Connections', auth: 'key', scope: 'read', grants: ['table', 'kms', 'oauthConfig', 'ses'], networks: true,
    summary: 'Check the stored credentials against the network again (240 an hour per account)',
    rateLimit: { limit: 240, windowSeconds: 3600 }, params: p.PlatformParams, query: p.BrandQuery,
    responses: { 200: { description: 'Health', schema: p.HealthResponse }, 404: E('not_connected'), ...std },
  },
  postOauthUrl: {
    id: 'post-oauth-url', method: 'POST', path: '/api/oauth/{platform}/url', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt', 'oauthConfig'], networks: true,
    summary: `The sign-in URL of an OAuth network (${OAUTH_PLATFORMS.join(', ')}) for a brand; state bound to account, brand and 15 minutes, PKCE where the network takes it`,
    params: o.OAuthPlatformParams, body: o.OAuthUrlBody, optionalBody: true,
    responses: {
      200: { description: 'The URL to open in a browser', schema: o.OAuthUrlResponse },
      400: E('not_oauth_platform, brand_required, invalid_redirect'), 404: E('brand_not_found'), 503: E('oauth_not_configured'), ...std,
    },
  },
  getOauthCallback: {
    id: 'get-oauth-callback', method: 'GET', path: '/api/oauth/{platform}/callback', tag: 'Connections', auth: 'open', grants: ['table', 'kms', 'oauthConfig'], networks: true,
    summary: "The networks' redirect URI: exchanges the code, saves the connection (tokens encrypted) and shows the result, the page picker, or redirects (HTML). With ?start=<token> it is the one-use sign-in link of POST /api/oauth/{platform}/url: sets the browser's nonce cookie and 303s to the network",
    params: o.OAuthPlatformParams, query: o.OAuthCallbackQuery, rateLimit: { limit: 60, windowSeconds: 60 }, timeoutSeconds: 29,
    responses: {
      200: { description: 'Connected, or choose a page / business account (HTML)', contentType: 'text/html' },
      303: { description: 'Back to the connect page or to redirect_after' },
      400: { description: 'oauth_state_invalid, oauth_state_used, oauth_denied (HTML)' }, 410: { description: 'oauth_state_expired (HTML)' },
      502: { description: 'The network refused the code (HTML)' },
    },
  },
  postOauthPick: {
    id: 'post-oauth-pick', method: 'POST', path: '/api/oauth/{platform}/pick', tag: 'Connections', auth: 'open', grants: ['table', 'kms', 'oauthConfig'], networks: true,
    summary: "The picker's answer: connects the chosen page / business account (form post from the picker page)",
    params: o.OAuthPlatformParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 },
    responses: { 200: { description: 'Connected (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the connect page or redirect_after' }, 400: { description: 'oauth_pick_invalid (HTML)' }, 403: E('cross_site_form: posted from another site'), 410: { description: 'oauth_pick_expired (HTML)' } },
  },
  postConnectLink: {
    id: 'post-connect-link', method: 'POST', path: '/api/connect-link', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'A hosted connect page (1 hour, no login) that connects networks into one brand: every network, or only `platform`',
    body: o.ConnectLinkBody, optionalBody: true,
    responses: { 200: { description: 'The link', schema: o.ConnectLinkResponse }, 400: E('invalid_request, brand_required'), 404: E('brand_not_found'), ...std },
  },
  getConnectPage: {
    id: 'get-connect-page', method: 'GET', path: '/connect/{token}', tag: 'Connections', auth: 'open', grants: ['table', 'oauthConfig'], networks: true,
    summary: 'The hosted connect page of a connect link (HTML): every network with its state, OAuth buttons and credential forms',
    params: o.ConnectPageParams, query: o.ConnectPageQuery, rateLimit: { limit: 120, windowSeconds: 60 },
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Expired link (HTML)' } },
  },
  postConnectPageOauth: {
    id: 'post-connect-page-oauth', method: 'POST', path: '/connect/{token}/oauth/{platform}', tag: 'Connections', auth: 'open', grants: ['table', 'kmsEncrypt', 'oauthConfig'], networks: true,
    summary: "The connect page's sign-in button: 303 to the network's authorize page (state bound to the link's brand)",
    params: o.ConnectFormParams, body: o.FormBody, optionalBody: true, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 },
    responses: { 303: { description: "To the network's sign-in" }, 403: { description: 'The link is for another network; cross_site_form, form_token_invalid (HTML)' }, 410: { description: 'Expired link (HTML)' }, 503: { description: 'oauth_not_configured (HTML)' } },
  },
  postConnectPageCredentials: {
    id: 'post-connect-page-credentials', method: 'POST', path: '/connect/{token}/credentials/{platform}', tag: 'Connections', auth: 'open', grants: ['table', 'kmsEncrypt', 'oauthConfig'], networks: true,
    summary: "The connect page's credential form: checked against the network and saved (encrypted) into the link's brand",
    params: o.ConnectFormParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 }, timeoutSeconds: 29,
    responses: { 303: { description: 'Back to the page, which shows the connection' }, 400: { description: 'invalid_credentials (the page with the message)' }, 403: { description: 'cross_site_form, form_token_invalid: posted from another site or without the page token (HTML)' }, 410: { description: 'Expired link (HTML)' } },
  },
} as const satisfies Record<string, RouteDef>;
