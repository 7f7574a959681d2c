import type { RouteDef } from '../route';
import { hit, perMinute, type RateRule } from '../../app/rate-limit';
import { PLANS } from '../../domain/plans';
import { RateLimitedError } from '../../domain/errors';
import { stateOf, type Mw, type Req } from './request-state';

/**
 * Request limits shared across instances: the plan's requests a minute per key, then the route's own limit per
 * account (key routes) or per IP (open routes). What is left of each is kept for the RateLimit headers.
 */
export function rateLimit(route: RouteDef): Mw {
  return {
    before: async (req: Req) => {
      const s = stateOf(req.context);
      const count = async (name: string, subject: string, rule: RateRule) => {
        try {
          const left = await hit(s.deps, subject, rule);
          if (left) (s.rates ??= []).push({ name, ...left });
        } catch (err) {
          if (err instanceof RateLimitedError) (s.rates ??= []).push({ name, rule, remaining: 0, reset: err.retryAfter });
          throw err;
        }
      };
      if (s.principal) {
        const plan = PLANS[s.principal.account.plan];
        await count('key', `key#${s.principal.key.id}`, perMinute(plan.api_requests_per_minute_per_key));
      }
      if (route.rateLimit && s.principal) {
        await count(route.id, `${route.id}#acc#${s.principal.account.id}`, route.rateLimit);
      } else if (route.rateLimit) {
        const account = s.session?.account;
        await hit(s.deps, `${route.id}#${account ? `acc#${account.id}` : `ip#${s.ip}`}`, route.rateLimit);
      }
    },
  };
}
