// POST /v1/render: the route's spec, next to its handler (render.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { JOB_ITEM_PREFIX } from '../adapters/item-prefixes';
import { RATE_HEADERS, common } from '../api/doc-parts';
import { Binary, ErrorDetail } from '../api/schemas';
import { CONTENT_TYPES } from '../core/formats';
import { RENDER_ASYNC_RESPONSE_DOCS } from '../api/webhooks-doc';

const MiB = 1024 * 1024;

export const renderRoute = {
  id: 'Render',
  method: 'POST',
  path: '/v1/render',
  handler: 'lambdas/documents/handlers/render.ts',
  // Chromium: container image with the browser and fonts; memory buys CPU for layout.
  packaging: 'image',
  memoryMb: 2048,
  timeoutS: 29,
  maxBodyBytes: 2 * MiB,
  // accounts: only job items (options.async creates one); render: queues async jobs.
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    tables: { quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'rw' },
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['render'],
  },
  docs: {
    summary: 'Render a document',
    tags: ['documents'],
    bearer: 'optional',
    description:
      'JSON data + a built-in template, or your own Jinja2 HTML (custom_html, paid plans), becomes a document in ' +
      'one of ten formats. The answer is the file itself with its Content-Type and ' +
      '`Content-Disposition: attachment; filename="<slug>.<ext>"` (`documento.<ext>` for custom HTML). Documents ' +
      'over 4 MiB are answered with 303 to a download link valid one hour. Free-plan PDFs carry a subtle watermark.',
    body: {
      schema: async () => (await import('../api/render-request-doc')).RenderRequestDoc,
      contentTypes: ['application/json'],
      // A built-in template with its own sample data: renders as it is.
      example: async () => ({
        template: 'certificado',
        format: 'pdf',
        data: (await import('../../../templates/certificado/sample.json')).default,
      }),
    },
    responses: {
      200: {
        description: 'The document',
        schema: Binary,
        contentTypes: [...new Set(Object.values(CONTENT_TYPES))],
        headers: { 'Content-Disposition': 'attachment; filename="<slug>.<ext>"', ...RATE_HEADERS },
      },
      303: {
        description:
          'The document is larger than 4 MiB (a Lambda response carries at most 6 MB): follow Location (GET, no ' +
          'Authorization needed) within an hour. It counts like a 200.',
        headers: { Location: 'Presigned download URL, valid 3600 s', ...RATE_HEADERS },
      },
      ...common,
      403: {
        description: 'custom_html without a paid key (Pro, Scale or Lifetime)',
        schema: ErrorDetail,
      },
      429: {
        description: 'Monthly allowance used up; it comes back at 00:00 UTC on the 1st',
        schema: ErrorDetail,
        headers: { 'Retry-After': 'Seconds until 00:00 UTC on the 1st', ...RATE_HEADERS },
      },
      500: {
        description: 'A rendering fault on our side (not counted), with `request_id`',
        schema: ErrorDetail,
      },
      // options.async (Scale): 202 with a job, and the 403 that also covers it.
      ...RENDER_ASYNC_RESPONSE_DOCS,
    },
  },
} satisfies RouteSpec;
