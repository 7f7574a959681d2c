import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { brandsRoutes as routes } from '../routes/brands';
import { brandView, updateBrand } from '../../shared/app/brands';

export const handler = httpHandler(routes.patchBrand, async (req) =>
  ok(brandView(await updateBrand(req.deps, req.principal.account.id, req.params.id, req.body))));
