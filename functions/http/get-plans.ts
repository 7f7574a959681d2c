import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { catalogRoutes as routes } from '../routes/catalog';
import { PLANS, PLAN_NAMES, REFUND_DAYS, YEARLY_DISCOUNT_PERCENT } from '../../shared/domain/plans';

export const handler = httpHandler(routes.getPlans, async () =>
  ok({ plans: PLAN_NAMES.map((n) => PLANS[n]), yearly_discount_percent: YEARLY_DISCOUNT_PERCENT, refund_days: REFUND_DAYS }, { 'cache-control': 'public, max-age=300' }));
