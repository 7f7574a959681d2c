import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { brandsRoutes as routes } from '../routes/brands';
import { brandView, createBrand } from '../../shared/app/brands';

export const handler = httpHandler(routes.postBrands, async (req) =>
  ok({ ok: true, brand: brandView(await createBrand(req.deps, req.principal.account, req.body.name)) }));
