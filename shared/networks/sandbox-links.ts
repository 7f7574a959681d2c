import type { PlatformName } from '../domain/platforms';
import type { NetworkAdapter, PublishOutcome } from '../ports/networks';
import type { Registry } from '../ports/networks';

/**
 * Sandbox mode (local only): a post published to a simulated network links to that network's newest entry in the
 * sandbox inbox (`<inbox>#<network>`) instead of a page on the real network, which never saw it. The network's own
 * id is kept. Networks the user pointed elsewhere (their own `<NAME>_API_BASE`) keep their links.
 */
export function withSandboxLinks(registry: Registry, origin: string, simulated: ReadonlySet<PlatformName>): Registry {
  const host = new URL(origin).host;
  // credential networks reach the sandbox through a URL in their credentials (instance, site, webhook, relay)
  const inSandbox = (name: PlatformName, credentials: Record<string, string>) => simulated.has(name) || Object.values(credentials).some((v) => {
    try { const u = new URL(v); return u.host === host && u.pathname.startsWith('/sandbox/'); } catch { return false; }
  });
  const link = (name: PlatformName, credentials: Record<string, string>, outcome: PublishOutcome): PublishOutcome =>
    outcome.ok && outcome.url && inSandbox(name, credentials) ? { ...outcome, url: `${origin}/dev/sandbox/inbox#${name}` } : outcome;
  const wrap = (a: NetworkAdapter): NetworkAdapter => ({
    name: a.name,
    verify: (ctx) => a.verify(ctx),
    check: (content, credentials) => a.check(content, credentials),
    publish: async (content, ctx) => link(a.name, ctx.credentials, await a.publish(content, ctx)),
    ...(a.resume ? { resume: async (content, state, ctx) => link(a.name, ctx.credentials, await a.resume!(content, state, ctx)) } : {}),
    // read-back (reconciling a stale claim) stays available in sandbox mode; a post found there links like a publish
    ...(a.readBack ? {
      readBack: async (content, query, ctx) => {
        const seen = await a.readBack!(content, query, ctx);
        return seen.state === 'found' && inSandbox(a.name, ctx.credentials) ? { ...seen, url: `${origin}/dev/sandbox/inbox#${a.name}` } : seen;
      },
    } : {}),
    // deleting and editing a published post pass through as they are
    ...(a.delete ? { delete: (ref, ctx) => a.delete!(ref, ctx) } : {}),
    ...(a.edit ? { edit: (ref, content, ctx) => a.edit!(ref, content, ctx) } : {}),
    // post analytics read the simulator's (changing) figures
    ...(a.metrics ? { metrics: a.metrics } : {}),
  });
  return Object.fromEntries(Object.entries(registry).map(([name, a]) => [name, wrap(a)])) as Registry;
}
