// What GET /api says about CFDI batches (POST /v1/batches/upload, POST /v1/batches, GET /v1/batches/{id}): the
// schemas of what use-cases/batches.ts answers (checked against real answers in test/e2e/cfdi-batch.test.ts).
import { z } from 'zod';

export const BatchUploadSlot = z.strictObject({
  upload_id: z.string().meta({ description: '`bup_` + 22 characters' }),
  upload: z.strictObject({
    method: z.literal('POST'),
    url: z.string(),
    fields: z.record(z.string(), z.string()).meta({ description: 'Send these form fields first, unchanged' }),
    file_field: z.literal('file'),
  }),
  max_bytes: z.int(),
  max_files: z.int(),
  content_type: z.literal('application/zip'),
  upload_expires_at: z.string(),
  start: z.strictObject({
    method: z.literal('POST'),
    path: z.literal('/v1/batches'),
    body: z.strictObject({ upload_id: z.string() }),
  }),
});

export const BatchRequestDoc = z
  .union([
    z.strictObject({
      upload_id: z.string().meta({ description: 'From POST /v1/batches/upload, after the zip was sent' }),
    }),
    z.strictObject({
      xml: z
        .array(z.string())
        .min(1)
        .max(5000)
        .meta({ description: 'The CFDI 4.0 XML documents themselves (a body of at most 5 MiB)' }),
    }),
  ])
  .meta({ example: { upload_id: 'bup_AbCdEfGhIjKlMnOpQrStUv' } });

export const BatchView = z.strictObject({
  id: z.string().meta({ description: 'The batch id, a job id (`job_…`): GET /v1/jobs/{id} shows it too' }),
  object: z.literal('batch'),
  status: z.enum(['queued', 'rendering', 'done', 'failed']),
  total: z
    .int()
    .nullable()
    .meta({ description: 'Distinct stamped CFDI to print (null until the zip is read)' }),
  done: z.int().meta({ description: 'PDFs made so far' }),
  failed: z.int().meta({ description: 'CFDI whose PDF failed (listed in resumen.xlsx, not charged)' }),
  refused: z.int().nullable().meta({ description: 'Files that are no stamped CFDI 4.0, or repeat a UUID' }),
  progress: z.number().meta({ description: '0..1' }),
  eta_s: z
    .int()
    .nullable()
    .meta({ description: 'Estimated seconds left (null until the first part is done)' }),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
  expires_at: z.string(),
  status_url: z.string(),
  filename: z.string().optional(),
  bytes: z.int().optional(),
  download_url: z
    .string()
    .optional()
    .meta({ description: 'done: the zip (presigned, valid 1 h, signed afresh at every GET)' }),
  download_expires_at: z.string().optional(),
  reason: z.string().optional().meta({ description: 'failed: why, in words to act on' }),
});
