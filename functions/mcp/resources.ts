import type { ListResourceTemplatesResult, ReadResourceResult, Resource } from '@modelcontextprotocol/server';

type ResourceTemplate = ListResourceTemplatesResult['resourceTemplates'][number];
import { requireScope } from '../../shared/app/auth';
import { NotFoundError } from '../../shared/domain/errors';
import { PLATFORMS, isPlatformName, platform as platformInfo, type PlatformName } from '../../shared/domain/platforms';
import { brandView } from '../../shared/app/brands';
import { getPost } from '../../shared/app/publish/queries';
import { usage } from '../../shared/app/usage';
import type { NetworkLimits } from '../../shared/ports/network-limits';
import { connectionsHealth, type ToolContext } from './tools';
import { explainCode, KNOWN_CODES } from './errors';

/**
 * Resources with stable URIs (scheme `social://`): what an agent reads to plan — the networks and their rules, the
 * account's brands, its connections with health, usage, a post's status, and every error code. All JSON, read with
 * the caller's read scope; nothing here changes anything.
 */

const JSON_TYPE = 'application/json';

/** A network's rules: what a post to it needs and its limits (its text rule from the NetworkLimits port). */
export function networkRules(limits: NetworkLimits, name: PlatformName) {
  const p = platformInfo(name);
  const t = limits.textRule(name);
  return {
    name, available: p.available, connects_with: p.oauth ? 'oauth' : 'credentials', credential_fields: p.fields,
    needs: p.needs, max_media: p.max_media, ...(p.kind ? { kind: p.kind } : {}),
    text: { limit: t.limit, unit: t.unit, ...(t.captionLimit ? { caption_limit: t.captionLimit } : {}), ...(t.maxBytes ? { max_bytes: t.maxBytes } : {}) },
    post_kinds: [p.kind === 'article' ? 'article' : 'post', ...(t.thread ? ['thread'] : []), ...(t.firstComment ? ['first_comment'] : [])],
    ...(p.addon ? { addon: p.addon.rule } : {}),
  };
}

const STATIC: Array<Resource & { read: (ctx: ToolContext) => Promise<unknown> }> = [
  { uri: 'social://networks', name: 'networks', title: 'Networks and their rules', description: `The ${PLATFORMS.length} networks: how each connects, what a post needs (media rules), its text limit and unit, post kinds (thread, first comment, article)`, mimeType: JSON_TYPE,
    read: async ({ deps }) => ({ networks: PLATFORMS.map((p) => networkRules(deps.networkLimits, p.name)) }) },
  { uri: 'social://brands', name: 'brands', title: 'Brands', description: "The account's brands (id, name, timezone, posting slots)", mimeType: JSON_TYPE,
    read: async ({ deps, principal }) => ({ brands: (await deps.brands.list(principal.account.id)).map(brandView) }) },
  { uri: 'social://connections', name: 'connections', title: 'Connections with health', description: 'Every connected network per brand, with its health (active or reauth_required) and the fix', mimeType: JSON_TYPE,
    read: (ctx) => connectionsHealth(ctx) },
  { uri: 'social://connections/health', name: 'connection-health', title: 'Connection health', description: 'The answer of get_connection_health for every brand: healthy and unhealthy counts, each connection with its status, health state (healthy, expiring, reauth_required, network_down) and the fix. Stored state only (no network call).', mimeType: JSON_TYPE,
    read: (ctx) => connectionsHealth(ctx) },
  { uri: 'social://usage', name: 'usage', title: 'Usage', description: 'For each plan limit: limit, used, remaining and when it resets', mimeType: JSON_TYPE,
    read: async ({ deps, principal }) => usage(deps, principal.account) },
  { uri: 'social://errors', name: 'errors', title: 'Error codes', description: 'Every error and result code with what it means and how to fix it (naming the tool to use)', mimeType: JSON_TYPE,
    read: async () => ({ codes: KNOWN_CODES.map(explainCode) }) },
];

interface Template extends ResourceTemplate { pattern: RegExp; read: (ctx: ToolContext, value: string) => Promise<unknown> }

const TEMPLATES: Template[] = [
  { uriTemplate: 'social://networks/{platform}', name: 'network', title: 'One network and its rules', description: 'A network\'s rules (as in social://networks), e.g. social://networks/bluesky', mimeType: JSON_TYPE,
    pattern: /^social:\/\/networks\/([a-z]+)$/,
    read: async ({ deps }, name) => { if (!isPlatformName(name)) throw new NotFoundError(`Unknown network: ${name}`); return networkRules(deps.networkLimits, name); } },
  { uriTemplate: 'social://connections/health/{brand_id}', name: 'brand-connection-health', title: "One brand's connection health", description: 'As social://connections/health for one brand (brd_… from list_brands), e.g. social://connections/health/brd_abc', mimeType: JSON_TYPE,
    pattern: /^social:\/\/connections\/health\/([A-Za-z0-9_]+)$/,
    read: (ctx, brandId) => connectionsHealth(ctx, brandId) },
  { uriTemplate: 'social://posts/{post_id}', name: 'post', title: 'A post and its status per network', description: 'A post (pst_… from post_to_social or list_posts): each network\'s result and the events recorded for it', mimeType: JSON_TYPE,
    pattern: /^social:\/\/posts\/([A-Za-z0-9_]+)$/,
    read: ({ deps, principal }, id) => getPost(deps, principal.account.id, id) },
  { uriTemplate: 'social://errors/{code}', name: 'error', title: 'One error code', description: 'What a code means and how to fix it, e.g. social://errors/not_connected', mimeType: JSON_TYPE,
    pattern: /^social:\/\/errors\/([a-z0-9_]+)$/,
    read: async (_ctx, code) => explainCode(code) },
];

export const listResources = (): Resource[] => STATIC.map(({ read: _r, ...r }) => r);
export const listResourceTemplates = (): ResourceTemplate[] => TEMPLATES.map(({ read: _r, pattern: _p, ...t }) => t);

/** resources/read: the JSON of a static resource or of a template's URI; an unknown URI is not found. */
export async function readResource(ctx: ToolContext, uri: string): Promise<ReadResourceResult> {
  requireScope(ctx.principal, 'read');
  const fixed = STATIC.find((r) => r.uri === uri);
  let data: unknown;
  if (fixed) data = await fixed.read(ctx);
  else {
    const t = TEMPLATES.map((tp) => ({ tp, m: tp.pattern.exec(uri) })).find((x) => x.m);
    if (!t) throw new NotFoundError(`No resource ${uri}: resources/list and resources/templates/list name them`);
    data = await t.tp.read(ctx, decodeURIComponent(t.m![1]!));
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(data) }] };
}
