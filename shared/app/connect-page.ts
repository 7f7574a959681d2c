import type { Deps } from './deps';
import type { Account } from '../ports/store';
import { BadRequestError, ForbiddenError, NotFoundError } from '../domain/errors';
import { isPlatformName, PLATFORMS, platform as platformInfo, type PlatformName } from '../domain/platforms';
import { connect, type ConnectDeps } from './connections';
import { targetBrandFor } from './guardrails/target-brand';
import type { Actor } from './auth';
import { authorizeUrl, isConfigured, readyNetwork } from './oauth/flow';
import { findConnectLink, issueConnectLink, type ConnectLink } from './connect-link/issue';

/**
 * POST /api/connect-link {brand_id, platform?}: a hosted page for someone without an account of their own.
 * 1. The brand must be the caller's (the only brand when brand_id is left out; several → 400 brand_required), and
 *    among the calling key's or AI app's allowed brands (403 brand_not_allowed).
 * 2. An optional network narrows the page to that one.
 * 3. A random token (stored hashed) bound to account, brand and network, valid 1 hour.
 */
export async function createConnectLink(deps: Pick<Deps, 'brands' | 'clock' | 'guardrails' | 'settings' | 'tokens'>, account: Account, input: { brand_id?: string; platform?: string }, actor?: Actor) {
  if (input.platform !== undefined && !isPlatformName(input.platform)) {
    throw new BadRequestError(`Unknown network: ${input.platform}; GET /api/platforms lists them`, { details: { platforms: [input.platform] } });
  }
  const brand = await targetBrandFor(deps, account, input.brand_id, actor);
  return issueConnectLink(deps, account.id, brand.id, input.platform as PlatformName | undefined);
}

export type RowStatus = 'connected' | 'reauth_required' | 'not_connected' | 'not_configured' | 'unavailable';

/** One network on the hosted page. */
export interface NetworkRow {
  platform: PlatformName;
  oauth: boolean;
  status: RowStatus;
  handle?: string;
  fields: string[];
  optional_fields: string[];
}

export interface ConnectPageModel {
  link: ConnectLink;
  brand: { id: string; name: string };
  networks: NetworkRow[];
}

/** The link and everything its page shows: the brand and, per network, whether it is connected, possible, configured. */
export async function connectPage(deps: Pick<Deps, 'brands' | 'clock' | 'connections' | 'networks' | 'oauth' | 'tokens'>, token: string): Promise<ConnectPageModel> {
  const link = await findConnectLink(deps, token);
  const brand = await deps.brands.get(link.account_id, link.brand_id);
  if (!brand) throw new NotFoundError('The brand of this connect link no longer exists', { code: 'link_not_found' });
  const connections = (await deps.connections.listByAccount(link.account_id)).filter((c) => c.brand_id === link.brand_id);
  const platforms = link.platform ? [platformInfo(link.platform)] : PLATFORMS;
  const networks = await Promise.all(platforms.map(async (p): Promise<NetworkRow> => {
    const c = connections.find((x) => x.platform === p.name);
    const configured = p.oauth ? await isConfigured(deps, p.name) : !!deps.networks[p.name];
    const status: RowStatus = c ? (c.status === 'active' ? 'connected' : 'reauth_required') : !p.available ? 'unavailable' : !configured ? 'not_configured' : 'not_connected';
    return { platform: p.name, oauth: p.oauth, status, handle: c?.handle, fields: p.fields, optional_fields: p.optional_fields ?? [] };
  }));
  return { link, brand: { id: brand.id, name: brand.name }, networks };
}

/** The link reaches only its own network when it names one. */
function allowed(link: ConnectLink, platform: string): PlatformName {
  if (!isPlatformName(platform)) throw new NotFoundError(`Unknown network: ${platform}`);
  if (link.platform && link.platform !== platform) {
    throw new ForbiddenError(`This connect link is for ${link.platform} only`, { code: 'connect_link_platform' });
  }
  return platform;
}

/**
 * The page's "Connect with …" button: a sign-in whose state is bound to the link's account and brand (never any
 * other), ends no later than the link, and leads back to the page.
 */
export async function startLinkOAuth(deps: Pick<Deps, 'cipher' | 'clock' | 'oauth' | 'settings' | 'tokens'>, token: string, platformName: string): Promise<{ url: string; nonce: string }> {
  const link = await findConnectLink(deps, token);
  const platform = allowed(link, platformName);
  const net = await readyNetwork(deps, platform);
  return authorizeUrl(deps, net, { account_id: link.account_id, brand_id: link.brand_id, link_token: token }, link.expires_at);
}

/**
 * The page's credential form: the same checks as POST /api/connect (fields, public addresses, verified against
 * the network), saved into the link's brand. Only the network's own fields are read from the form.
 */
export async function connectWithLink(deps: ConnectDeps & Pick<Deps, 'accounts' | 'tokens'>, token: string, platformName: string, form: Record<string, string>) {
  const link = await findConnectLink(deps, token);
  const platform = allowed(link, platformName);
  const info = platformInfo(platform);
  if (info.oauth) throw new BadRequestError(`${platform} connects through its own sign-in, not a form`, { code: 'oauth_platform' });
  const account = await deps.accounts.get(link.account_id);
  if (!account) throw new NotFoundError('This connect link does not exist; ask for a new one', { code: 'link_not_found' });
  const credentials: Record<string, string> = {};
  for (const f of info.fields) credentials[f] = form[f] ?? '';
  for (const f of info.optional_fields ?? []) if (form[f]?.trim()) credentials[f] = form[f];
  return connect(deps, account, { platform, credentials, brand_id: link.brand_id });
}

