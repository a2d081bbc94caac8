// PUT/GET/DELETE /v1/brand: the account's brand (use-cases/brand.ts), specs next to their one handler (brand.ts);
// routes.ts lists them. A brand stored here is printed on every factura the account's keys render without an
// options.marca of their own (POST /v1/render reads `brand#` items for that).
import { z } from 'zod';
import type { Access, RouteSpec } from '../../shared/manifest';
import { BRAND_ITEM_PREFIX } from '../adapters/item-prefixes';
import { invalid400 } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';
import { brandPutRequest } from '../use-cases/brand';

export const BrandView = z.object({
  logo: z
    .string()
    .nullable()
    .meta({ description: 'Data URI of the logo as it prints (an SVG as sanitised), or null' }),
  color: z.string().nullable().meta({ description: 'Primary colour #rrggbb, or null' }),
  notas: z.string().nullable().meta({ description: 'Notes block printed after the totals, or null' }),
  leyenda_pie: z.string().nullable().meta({ description: 'Footer legend on every page, or null' }),
  updated_at: z.string().meta({ description: 'When it was last stored (ISO 8601, UTC)' }),
});

const unauthenticated = {
  description: 'No, unknown or revoked API key (`WWW-Authenticate: Bearer`)',
  schema: ErrorDetail,
};
const notFound = { description: 'This account has no brand stored', schema: ErrorDetail };

const brandItems = (write: boolean): Access => ({
  tables: { keys: 'r', accounts: write ? 'rw' : 'r' },
  itemPrefixes: { accounts: [BRAND_ITEM_PREFIX] },
});

/** Route ids (CDK construct ids: keep them stable). */
export type BrandRouteId = 'BrandPut' | 'BrandGet' | 'BrandDelete';

/** PUT's body limit: a logo of 200 KB is ~270 KB as a base64 data URI, plus the texts. */
export const BRAND_PUT_MAX_BYTES = 300 * 1024;

const base = { handler: 'lambdas/documents/handlers/brand.ts', memoryMb: 256, timeoutS: 5 } as const;

const HOW =
  'Stored once per account (every key of the account shares it) and printed on every factura its keys render — ' +
  'from data or from cfdi_xml, synchronous, async (the brand at the time of the request) and the factura parts ' +
  'of a merge — whenever the request has no `options.marca`. A request’s own `options.marca` replaces the stored ' +
  'brand whole for that document; `"options": {"marca": {}}` prints it without a brand. Nothing SAT requires is ' +
  'ever removed from the representación impresa.';

export const BRAND_ROUTES: (RouteSpec & { id: BrandRouteId })[] = [
  {
    ...base,
    id: 'BrandPut',
    method: 'PUT',
    path: '/v1/brand',
    maxBodyBytes: BRAND_PUT_MAX_BYTES,
    access: brandItems(true),
    docs: {
      summary: "Store the account's brand",
      tags: ['documents'],
      bearer: 'required',
      description:
        `${HOW} The body is \`options.marca\`’s: \`logo\` (data URI of a PNG ≤ 4000 × 4000 px or an SVG, ≤ 200 KB ` +
        'decoded; the SVG is rebuilt from an allowlist: no script, event handler, foreignObject, style or external ' +
        'reference), `color` (#rrggbb), `notas` (≤ 1000 characters), `leyenda_pie` (≤ 120). It replaces the ' +
        'stored brand whole (members left out are removed). Answers the brand as it prints.',
      body: {
        schema: brandPutRequest,
        contentTypes: ['application/json'],
        example: async () => ({ ...(await import('../../../templates/factura/examples')).marcaEjemplo }),
      },
      responses: {
        200: { description: 'Replaced: the brand as stored', schema: BrandView },
        201: { description: 'Stored for the first time', schema: BrandView },
        400: invalid400,
        401: unauthenticated,
      },
    },
  },
  {
    ...base,
    id: 'BrandGet',
    method: 'GET',
    path: '/v1/brand',
    access: brandItems(false),
    docs: {
      summary: "The account's brand",
      tags: ['documents'],
      bearer: 'required',
      description: HOW,
      responses: {
        200: { description: 'The brand', schema: BrandView },
        401: unauthenticated,
        404: notFound,
      },
    },
  },
  {
    ...base,
    id: 'BrandDelete',
    method: 'DELETE',
    path: '/v1/brand',
    access: brandItems(true),
    docs: {
      summary: "Remove the account's brand",
      tags: ['documents'],
      bearer: 'required',
      description:
        'Facturas rendered from now on print without a brand (unless a request brings options.marca).',
      responses: { 204: { description: 'Removed' }, 401: unauthenticated, 404: notFound },
    },
  },
];
