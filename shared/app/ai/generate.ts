import type { Account } from '../../ports/store';
import type { GenerateInput } from '../../api/ai-schemas';
import { getBrand } from '../brands';
import { hit } from '../rate-limit';
import { networkBrief } from './brief';
import { checkPlatforms, draftWithAllowance, shapeOf, type AiDeps } from './run';
import { GENERATE_RATE } from './quota';
import type { Deps } from '../deps';

/**
 * POST /api/generate (and the MCP tool generate_posts): one prompt → one draft per network, each fitting its network
 * by the length validator, ready to be sent verbatim as per_platform. Order: input (networks, brand) → 8 a minute
 * per account → one of the plan's AI drafts a day → the provider. Nothing of the account is sent to the provider.
 */
export async function generateDrafts(deps: AiDeps & Pick<Deps, 'brands'>, account: Account, input: GenerateInput) {
  const platforms = checkPlatforms(input.platforms);
  if (input.brand_id !== undefined) await getBrand(deps, account.id, input.brand_id);
  await hit(deps, `generate#acc#${account.id}`, GENERATE_RATE);
  const shape = shapeOf(input.media);
  const brief = {
    prompt: input.prompt, tone: input.tone, language: input.language, link: input.link,
    networks: platforms.map((p) => networkBrief(p, deps.networkLimits.textRule(p), shape)), days: 1,
  };
  const run = await draftWithAllowance(deps, account, brief, shape);
  return { drafts: run.days[0], provider: run.provider, model: run.model, usage: run.usage };
}
