// PUT/GET/DELETE /v1/brand (brand.route.ts), one handler picking each by its route key: the account's brand
// (use-cases/brand.ts). No key → 401; 404 when the account has none (GET, DELETE).
//   PUT    /v1/brand → 201 (stored) or 200 (replaced) with the brand as it prints; 400 with every problem
//   GET    /v1/brand → 200 {logo, color, notas, leyenda_pie, updated_at}
//   DELETE /v1/brand → 204
import { NotFound } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { NO_STORE, json } from '../../shared/http/response';
import { lazyHandlers, routeHandler } from '../../shared/http/route-handlers';
import { ownerOf } from '../../shared/auth/owner';
import { awsDeps, type DocumentsDeps } from '../deps';
import { publicBrand, putBrand } from '../use-cases/brand';
import { requireKeyHolder } from '../use-cases/webhooks';
import { BRAND_PUT_MAX_BYTES, BRAND_ROUTES, type BrandRouteId } from './brand.route';

const WHY = 'a brand is stored for the account of the key.';
const none = () => new NotFound('This account has no brand stored. Store one with PUT /v1/brand.');

type Deps = Pick<DocumentsDeps, 'keys' | 'brands' | 'now'>;

export const makeHandlers = (deps: Deps) =>
  lazyHandlers<BrandRouteId>({
    BrandPut: () =>
      apiHandler(
        async (req) => {
          const key = await requireKeyHolder(req.headers, deps.keys, WHY);
          const { created, brand } = await putBrand(deps, key, req.body());
          return json(created ? 201 : 200, publicBrand(brand), NO_STORE);
        },
        { maxBodyBytes: BRAND_PUT_MAX_BYTES, invalidStatus: 400 },
      ),
    BrandGet: () =>
      apiHandler(async (req) => {
        const key = await requireKeyHolder(req.headers, deps.keys, WHY);
        const brand = await deps.brands.get(ownerOf(key));
        if (!brand) throw none();
        return json(200, publicBrand(brand), NO_STORE);
      }),
    BrandDelete: () =>
      apiHandler(async (req) => {
        const key = await requireKeyHolder(req.headers, deps.keys, WHY);
        if (!(await deps.brands.remove(ownerOf(key)))) throw none();
        return { statusCode: 204, headers: NO_STORE, body: '' };
      }),
  });

export const handler = routeHandler(BRAND_ROUTES, makeHandlers(awsDeps()));
