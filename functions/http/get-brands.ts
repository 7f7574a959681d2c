import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { brandsRoutes as routes } from '../routes/brands';
import { brandView } from '../../shared/app/brands';

export const handler = httpHandler(routes.getBrands, async (req) =>
  ok({ brands: (await req.deps.brands.list(req.principal.account.id)).map(brandView) }));
