// The account's brand (PUT/GET/DELETE /v1/brand, handlers/brand.ts): a logo, a colour, a notes block and a footer
// legend stored once per account and printed on every factura its keys render (template data or cfdi_xml, sync,
// async and in merges) when the request brings no options.marca. A request's own options.marca replaces the stored
// one whole; `"marca": {}` prints that document without a brand. Validation is options.marca's
// (templates/kit/marca.ts): the same checks, the same messages. Talks only to ports.
import type { ApiKeyRecord } from '../../shared/auth/keys';
import { ownerOf } from '../../shared/auth/owner';
import { DocumentRequestError } from '../errors';
import { logoSeguro, marcaSchema, type Marca } from '../../../templates/kit/marca';
import type { BrandStore, StoredBrand } from '../ports';
import { MARCA_TEMPLATES, problemsOf } from '../request/checks';
import type { SingleRenderRequest, ValidRenderRequest } from '../request/valid-request';

/** PUT /v1/brand's body: options.marca's schema (each member optional, at least one). */
export const brandPutRequest = marcaSchema;

const prints = (r: SingleRenderRequest) =>
  r.kind === 'template' && MARCA_TEMPLATES.has(r.template.meta.slug) && r.options.marca === undefined;

/** Would this request print the account's brand (a factura somewhere, and no options.marca of its own)? */
export function usesAccountBrand(request: ValidRenderRequest): boolean {
  if (request.options.marca !== undefined) return false;
  return request.kind === 'merge' ? request.parts.some(prints) : prints(request);
}

/** The request with the account's brand where it prints: the document, or each factura part of a merge. */
export function withAccountBrand(request: ValidRenderRequest, marca: Marca): ValidRenderRequest {
  const brand = <R extends SingleRenderRequest>(r: R): R =>
    prints(r) ? { ...r, options: { ...r.options, marca } } : r;
  if (request.kind === 'merge') return { ...request, parts: request.parts.map(brand) };
  return brand(request);
}

/** A POST /v1/render body with the account's brand as its options.marca (what an async job stores and re-reads). */
export function bodyWithBrand(body: unknown, marca: Marca): unknown {
  const b = body as Record<string, unknown>;
  return { ...b, options: { ...(b.options as Record<string, unknown> | undefined), marca } };
}

/** The brand as GET /v1/brand shows it. */
export function publicBrand(b: StoredBrand) {
  return {
    logo: b.marca.logo ?? null,
    color: b.marca.color ?? null,
    notas: b.marca.notas ?? null,
    leyenda_pie: b.marca.leyenda_pie ?? null,
    updated_at: b.updatedAt,
  };
}

/** PUT /v1/brand: validates (400 with every problem), keeps the logo as it prints, replaces the account's brand. */
export async function putBrand(
  deps: { brands: BrandStore; now(): Date },
  key: ApiKeyRecord,
  body: unknown,
): Promise<{ created: boolean; brand: StoredBrand }> {
  const problems = problemsOf(brandPutRequest, body, ['body']);
  if (problems.length) throw new DocumentRequestError(problems);
  const marca = brandPutRequest.parse(body);
  if (Object.values(marca).every((v) => v === undefined))
    throw new DocumentRequestError([
      {
        loc: ['body'],
        msg: 'A brand needs at least one of logo, color, notas, leyenda_pie (DELETE /v1/brand removes it)',
        type: 'missing',
      },
    ]);
  const brand: StoredBrand = {
    owner: ownerOf(key),
    marca: { ...marca, ...(marca.logo !== undefined ? { logo: logoSeguro(marca.logo) } : {}) },
    updatedAt: deps.now().toISOString(),
    changedBy: key.keyPrefix,
  };
  const { replaced } = await deps.brands.put(brand);
  return { created: !replaced, brand };
}
