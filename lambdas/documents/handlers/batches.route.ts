// POST /v1/batches: the route's spec, next to its handler (batches.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { BRAND_ITEM_PREFIX, JOB_ITEM_PREFIX } from '../adapters/item-prefixes';
import { RATE_HEADERS, common } from '../api/doc-parts';
import { BatchRequestDoc, BatchView } from '../api/batches-doc';
import { ErrorDetail } from '../api/schemas';
import { BATCHES_PREFIX } from '../bucket';

export const startBatchRoute = {
  id: 'StartBatch',
  method: 'POST',
  path: '/v1/batches',
  handler: 'lambdas/documents/handlers/batches.ts',
  memoryMb: 512,
  timeoutS: 15,
  // A JSON list of XML: 5,000 small CFDI, or a few hundred large ones (bigger months go as a zip upload).
  maxBodyBytes: 5 * 1024 * 1024,
  // Idempotency-Key: a retried start answers the same batch (a repeated upload_id does so by itself).
  idempotent: true,
  access: {
    // quotas: what is left this month (read; the split charges) and the Idempotency-Key records.
    tables: { quotas: 'rw', keys: 'r', accounts: 'rw' },
    // The batch's job; the account's brand (read), which its facturas print.
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX, BRAND_ITEM_PREFIX] },
    // Reads that the upload arrived; stores a JSON list as the batch's source and the brand it prints.
    bucket: 'rw',
    bucketPrefixes: [BATCHES_PREFIX.prefix],
    // The batch's split, to the batch assembler.
    sendTo: ['assemble'],
  },
  docs: {
    summary: 'Start a batch of CFDI',
    tags: ['batches'],
    bearer: 'optional',
    // Examples with a key: a month of CFDI is a paid plan's (without one, the free plan's 10 files).
    sampleKey: true,
    description:
      'Prints a month of stamped CFDI 4.0 at once: `{"upload_id"}` of a zip sent with POST /v1/batches/upload, or ' +
      '`{"xml": [...]}`. 202 with the batch; poll GET /v1/batches/{id} (or GET /v1/jobs/{id}; Scale accounts with a ' +
      'webhook get `document.rendered` / `document.failed`). The result is one zip: ' +
      '`<RFC emisor>_<serie><folio>_<UUID>.pdf` and the original `.xml` for each CFDI (one per UUID even when a ' +
      'file repeats), `resumen.xlsx` (a row per CFDI with its taxes, totals in MXN per RFC emisor and per month, and ' +
      'a sheet of refused files with the reason) and `resumen.csv`. Quota: one document per CFDI printed, charged ' +
      'when the zip is read; refused files are not charged, PDFs that fail on our side are given back; a batch ' +
      'larger than what is left this month fails then, charging nothing. Starting the same upload again answers the ' +
      "same batch. A key's facturas print its account's brand (PUT /v1/brand) as of the start, as POST /v1/render does. " +
      '\n\n' +
      'Limits per plan — files per batch, zip size, parts of up to 20 CFDI rendered at once: without a key (free plan) 10 ' +
      'files, 2 MiB, 1 part, watermarked PDFs, the batch belongs to your address; Pro and Lifetime 1,000 files, ' +
      '100 MiB, 10 parts; Scale 5,000 files, 100 MiB, 50 parts (1,000 CFDI in well under a minute). A JSON list ' +
      'over the limit is refused at once with 403 naming it (`X-Error-Code: batch_plan_limit`, e.g. "A batch on ' +
      'the free plan holds at most 10 files; this one has 12…"); a zip over it fails at the split, with the limit ' +
      'in `reason`, charging nothing.',
    body: {
      schema: BatchRequestDoc,
      contentTypes: ['application/json'],
      // One CFDI written from the factura template's sample (unsigned: the batch lists it among the refused files,
      // with the reason); a real call sends stamped XML or an upload_id.
      example: async () => {
        const { facturaXml } = await import('../../../templates/factura/xml');
        const { schema } = await import('../../../templates/factura/schema');
        const sample = (await import('../../../templates/factura/sample.json')).default;
        return { xml: [facturaXml(schema.parse(sample))] };
      },
    },
    responses: {
      202: {
        description: 'The batch, queued',
        schema: BatchView,
        headers: { Location: '/v1/batches/{id}', 'Retry-After': 'Suggested polling interval (s)' },
      },
      ...common,
      403: {
        description: "More files than the plan's batch limit (the message names it; `max_files` says it)",
        schema: ErrorDetail,
      },
      429: {
        description: 'Nothing left this month; it comes back at 00:00 UTC on the 1st',
        schema: ErrorDetail,
        headers: { 'Retry-After': 'Seconds until 00:00 UTC on the 1st', ...RATE_HEADERS },
      },
    },
  },
} satisfies RouteSpec;
