import type { CompleteRequest, CompleteResult, GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import type { ToolContext } from './tools';

/**
 * Prompts: ready-made tasks an agent's user picks, each with arguments; `platforms`, `platform` and `brand` are
 * completed (network names; the account's brand names).
 */
interface PromptDef extends Prompt { arguments: NonNullable<Prompt['arguments']>; text: (a: Record<string, string>) => string }

const brandLine = (a: Record<string, string>) => (a.brand ? ` Use the brand "${a.brand}" (find its id with list_brands and pass it as brand_id).` : ' If the account has several brands, ask which one (list_brands).');

export const PROMPTS: PromptDef[] = [
  {
    name: 'cross_post_announcement', title: 'Cross-post an announcement',
    description: 'Announce one thing on several networks, each post fitted to its network, then publish',
    arguments: [
      { name: 'announcement', description: 'What to announce (plain text, a link welcome)', required: true },
      { name: 'platforms', description: 'Networks, comma-separated (default: every connected one)', required: false },
      { name: 'brand', description: 'Brand name (default: the only brand)', required: false },
    ],
    text: (a) => `Announce this on ${a.platforms ? a.platforms : 'every network connected in the brand (get_connection_health lists them)'}:\n\n${a.announcement}\n\n`
      + `Steps: 1. Draft one post per network with generate_posts (or write them yourself within each network's limit: resource social://networks). `
      + `2. Show me the drafts. 3. When I agree, publish with one post_to_social call using platforms and per_platform, with an idempotency_key. `
      + `4. Report each network's result; for any user_action in the result, give me its link.${brandLine(a)}`,
  },
  {
    name: 'plan_week', title: 'Plan a week of posts',
    description: "Seven days of posts in the brand's posting slots around a theme, reviewed before anything is scheduled",
    arguments: [
      { name: 'theme', description: 'What the week is about', required: true },
      { name: 'platforms', description: 'Networks, comma-separated', required: true },
      { name: 'brand', description: 'Brand name (default: the only brand)', required: false },
      { name: 'start', description: 'First day, YYYY-MM-DD (default: today)', required: false },
    ],
    text: (a) => `Plan a week of posts about: ${a.theme}\nNetworks: ${a.platforms}${a.start ? `\nFirst day: ${a.start}` : ''}\n\n`
      + 'Steps: 1. Call plan_week without schedule to get the drafts. 2. Show me the seven days. 3. When I agree, call plan_week again with '
      + 'schedule: true (or schedule_post per day). 4. List what was scheduled with list_scheduled_posts.' + brandLine(a),
  },
  {
    name: 'article_to_thread', title: 'Turn an article into a thread',
    description: 'Rewrite an article (text or link) as a thread of short posts on a network that takes threads',
    arguments: [
      { name: 'article', description: 'The article text, or its link', required: true },
      { name: 'platform', description: 'x, bluesky or mastodon (default x)', required: false },
      { name: 'brand', description: 'Brand name (default: the only brand)', required: false },
    ],
    text: (a) => {
      const net = a.platform || 'x';
      return `Turn this article into a thread on ${net}:\n\n${a.article}\n\n`
        + `Rules: each post within ${net}'s limit (resource social://networks/${net}); the first post must stand alone; 3 to 10 posts; no numbering unless asked. `
        + `Steps: 1. Write the thread. 2. Show it to me. 3. When I agree, publish with post_to_social {platform: "${net}", text: first post, `
        + `per_platform: {"${net}": {thread: [the other posts]}}} and an idempotency_key.${brandLine(a)}`;
    },
  },
];

/** prompts/get: the prompt's text with the arguments filled in; a missing required argument is invalid params. */
export function getPrompt(_ctx: ToolContext, name: string, args: Record<string, string>): GetPromptResult {
  const p = PROMPTS.find((x) => x.name === name);
  if (!p) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${name}: prompts/list names them`);
  const missing = p.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} needs: ${missing.join(', ')}`);
  return { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.text(args) } }] };
}

const MAX_VALUES = 100;
const done = (values: string[]): CompleteResult => ({ completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } });

/**
 * completion/complete: network names for `platform` / `platforms` (the last of a comma-separated list) and of the
 * network template's `platform`, the account's brand names for `brand`; nothing for other arguments.
 */
export async function completePromptArgument(ctx: ToolContext, params: CompleteRequest['params']): Promise<CompleteResult> {
  const { name, value } = params.argument;
  if (name === 'platform' || name === 'platforms') {
    const parts = value.split(',');
    const last = parts.pop()!.trim().toLowerCase();
    const chosen = new Set(parts.map((x) => x.trim()));
    const prefix = parts.length ? `${parts.map((x) => x.trim()).join(',')},` : '';
    const names = params.ref.type === 'ref/prompt' && params.ref.name === 'article_to_thread' ? ['x', 'bluesky', 'mastodon'] : [...PLATFORM_NAMES];
    return done(names.filter((n) => n.startsWith(last) && !chosen.has(n)).map((n) => prefix + n));
  }
  if (name === 'brand') {
    const brands = await ctx.deps.brands.list(ctx.principal.account.id);
    const v = value.trim().toLowerCase();
    return done(brands.map((b) => b.name).filter((n) => n.toLowerCase().startsWith(v)));
  }
  return done([]);
}
