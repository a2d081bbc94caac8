// CFDI batches, the API side: an accountant's month of stamped CFDI 4.0 in one request, every PDF and a summary
// workbook out (docs/documents-rendering.md, "CFDI batches"). Two ways in:
//   - a zip of up to MAX_BATCH_FILES XML, sent straight to S3: POST /v1/batches/upload answers an upload slot (a
//     presigned POST bound to the caller's prefix, application/zip, as large as the plan allows, 15 minutes), then
//     POST /v1/batches {"upload_id"} starts it;
//   - POST /v1/batches {"xml": ["<cfdi:Comprobante …", …]} (a body of up to 5 MiB).
// Either answers 202 with the batch id. A batch is a documents job (its record, GET /v1/jobs/{id}, expiry and
// webhook events are the async renders'); GET /v1/batches/{id} adds its counts and ETA. The work fans out on the
// batch queue (use-cases/batch-run.ts): split → parts rendered in parallel → assemble.
//
// Quota, per document: when the batch is split, every distinct stamped CFDI it will print is charged to the month
// (one charge of that many units, id `batch:<job id>`, so a repeated split charges once); files refused (not a
// CFDI 4.0, unstamped, a repeated UUID) are never charged; CFDI whose PDF failed on our side are given back when
// the batch is assembled. A batch that does not fit in what is left this month fails at the split, charging nothing.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Forbidden, QuotaExceeded, Unavailable, invalid } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { rateLimitHeaders, type QuotaStore } from '../../shared/quota/windows';
import { BATCHES_PREFIX } from '../bucket';
import { BATCH_LIMITS, monthlyRules, type DocumentsPlan } from '../core/plans';
import type { Marca } from '../../../templates/kit/marca';
import type { BatchFiles, BatchRepository, JobFiles, JobRecord, JobRepository } from '../ports';
import { availableUntil, downloadFor, JOB_TTL_S, newJobId, type MessageQueue } from './jobs';

/** handlers/render.route.ts' CFDI_XML_MAX_CHARS (not imported: this module runs in zip functions, without the templates). */
const CFDI_XML_MAX_CHARS = 1_500_000;

/** The most files any batch holds (the Scale plan's; each plan's own limit: BATCH_LIMITS in core/plans.ts). */
export const MAX_BATCH_FILES = BATCH_LIMITS.scale.maxFiles;
/** Uncompressed bytes a zip may expand to (a zip bomb fails the batch instead of filling the worker). */
export const MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;
export const UPLOAD_WINDOW_S = 15 * 60;
/** CFDI per part (one SQS message, rendered in sequence by one worker): ~2–3 s of Chromium. */
export const PART_SIZE = 20;
export const BATCHES_PATH = '/v1/batches';

/**
 * A message of the batch queue: a part. `split` and `assemble` are what the batch queue carried before the batch
 * assembler split batches and had its own queue (a batch under way at the deploy): the batch worker forwards them.
 */
export type BatchStep =
  | { jobId: string; step: 'split' }
  | { jobId: string; step: 'part'; part: number }
  | { jobId: string; step: 'assemble' };

/**
 * A message of the assemble queue (handlers/batch-assembler.ts, a zip bundle: no Chromium): the batch's split, sent
 * by POST /v1/batches (use-cases/batch-split.ts), then its assembly, sent by the split (use-cases/batch-assemble.ts).
 */
export interface AssembleMessage {
  jobId: string;
  /** The split; none: the assembly. */
  step?: 'split';
}

export interface BatchDeps {
  jobs: JobRepository & BatchRepository;
  jobFiles: JobFiles;
  batchFiles: BatchFiles;
  /** The batch's split (sent by its start) and assembly (sent by the split): the batch assembler's queue. */
  assembleQueue: MessageQueue;
  quotas: QuotaStore;
  now(): Date;
}

const UPLOAD_ID_RE = /^bup_[A-Za-z0-9_-]{22}$/;

/** The caller's own key prefix: an upload id only means something under its owner's prefix. */
function uploadKey(owner: string, uploadId: string): string {
  const who = createHash('sha256').update(owner).digest('hex').slice(0, 32);
  return `${BATCHES_PREFIX.prefix}uploads/${who}/${uploadId}.zip`;
}

/**
 * POST /v1/batches/upload: an upload slot for one zip, as large as the caller's plan allows. Nothing is stored or
 * charged until the batch starts.
 */
export async function createBatchUpload(
  deps: Pick<BatchDeps, 'batchFiles' | 'now'>,
  owner: string,
  plan: DocumentsPlan,
): Promise<Record<string, unknown>> {
  const uploadId = 'bup_' + randomBytes(16).toString('base64url');
  const limits = BATCH_LIMITS[plan];
  const post = await deps.batchFiles.presignUpload(uploadKey(owner, uploadId), {
    maxBytes: limits.maxZipBytes,
    expiresInS: UPLOAD_WINDOW_S,
  });
  return {
    upload_id: uploadId,
    upload: { method: 'POST', url: post.url, fields: post.fields, file_field: 'file' },
    max_bytes: limits.maxZipBytes,
    max_files: limits.maxFiles,
    content_type: 'application/zip',
    upload_expires_at: new Date(deps.now().getTime() + UPLOAD_WINDOW_S * 1000).toISOString(),
    start: { method: 'POST', path: BATCHES_PATH, body: { upload_id: uploadId } },
  };
}

export const BatchRequest = z.union([
  z
    .object({ upload_id: z.string().regex(UPLOAD_ID_RE, 'an upload_id from POST /v1/batches/upload') })
    .strict(),
  z
    .object({
      xml: z
        .array(z.string().max(CFDI_XML_MAX_CHARS))
        .min(1)
        .max(MAX_BATCH_FILES, `at most ${MAX_BATCH_FILES} CFDI per batch`),
    })
    .strict(),
]);
export type BatchRequest = z.infer<typeof BatchRequest>;

/** The job id of a zip's batch: one per upload and owner, so starting the same upload twice answers the same batch. */
function uploadJobId(owner: string, uploadId: string): string {
  return 'job_' + createHash('sha256').update(`${owner}\0${uploadId}`).digest('base64url').slice(0, 22);
}

/** POST /v1/batches: records the batch and queues its split. 202 with the batch (the same one for a repeated upload). */
export async function startBatch(
  deps: BatchDeps,
  input: {
    owner: string;
    plan: DocumentsPlan;
    quotaSubject: string;
    body: unknown;
    /** The account's stored brand (PUT /v1/brand): its facturas print it, as POST /v1/render's do. */
    marca?: Marca;
  },
): Promise<{ statusCode: 202; body: Record<string, unknown>; headers: Record<string, string> }> {
  const parsed = BatchRequest.safeParse(input.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(['body', ...issue.path.map(String)], issue.message, 'batch_request');
  }
  const owner = input.owner;
  const now = deps.now();
  if ('xml' in parsed.data) assertBatchSize(input.plan, parsed.data.xml.length);
  // Nothing left this month: refused now (the split checks the exact count against what is left).
  const rules = monthlyRules(input.plan);
  const [month] = await deps.quotas.peek(input.quotaSubject, rules, now);
  if (month && month.used >= month.limit) {
    const decision = {
      allowed: false,
      charged: [],
      binding: { ...month, remaining: 0 },
      all: [],
      slots: [month],
    };
    throw new QuotaExceeded(
      `This month's ${month.limit} documents are used: a batch is charged per CFDI it prints. Upgrade (GET /pricing) or wait for the month to reset.`,
      rateLimitHeaders(decision, now),
    );
  }
  const request = parsed.data;
  let jobId: string;
  let sourceKey: string;
  if ('upload_id' in request) {
    sourceKey = uploadKey(owner, request.upload_id);
    jobId = uploadJobId(owner, request.upload_id);
    const existing = await deps.jobs.get(jobId);
    if (existing) return accepted(existing, now);
    const source = await deps.batchFiles.openSource(sourceKey);
    if (!source)
      throw invalid(
        ['body', 'upload_id'],
        'Nothing was uploaded for this upload_id (or it expired): POST the zip to the upload url with the fields ' +
          `of POST ${BATCHES_PATH}/upload first.`,
        'upload_missing',
      );
    source.body.destroy();
  } else {
    jobId = newJobId();
    sourceKey = `${BATCHES_PREFIX.prefix}${jobId}/source.json`;
  }
  const iso = now.toISOString();
  const nowS = Math.floor(now.getTime() / 1000);
  const job: JobRecord = {
    jobId,
    owner,
    plan: input.plan,
    status: 'queued',
    progress: 0,
    template: null,
    format: 'zip',
    createdAt: iso,
    updatedAt: iso,
    resultExpiresAt: nowS + JOB_TTL_S,
    expiresAt: nowS + 2 * JOB_TTL_S,
    charged: [],
    batch: {
      source: 'upload_id' in request ? 'zip' : 'json',
      sourceKey,
      quotaSubject: input.quotaSubject,
      ...(input.marca ? { branded: true } : {}),
    },
  };
  try {
    if ('xml' in request) await deps.batchFiles.putSource(sourceKey, JSON.stringify(request.xml));
    if (input.marca) await deps.batchFiles.putBrand(jobId, input.marca);
    await deps.jobs.create(job);
    await deps.assembleQueue.send({ jobId, step: 'split' } satisfies AssembleMessage);
  } catch (err) {
    // A repeated start of the same upload that raced this one: answer the batch it made.
    const raced = 'upload_id' in request ? await deps.jobs.get(jobId).catch(() => undefined) : undefined;
    if (raced) return accepted(raced, now);
    logger.error('batch not queued', { error: err as Error, jobId });
    throw new Unavailable(
      'The batch could not be queued because a backing service is unavailable. Please retry; nothing was charged.',
    );
  }
  return accepted(job, now);
}

/** A batch of more files than the caller's plan allows: 403 naming the limit and the way past it. */
export function assertBatchSize(plan: DocumentsPlan, files: number): void {
  const max = BATCH_LIMITS[plan].maxFiles;
  if (files <= max) return;
  throw new Forbidden(
    plan === 'free'
      ? `A batch on the free plan holds at most ${max} files; this one has ${files}. Send ` +
          '`Authorization: Bearer <key>` of a paid plan (Pro: 1,000 files per batch, Scale: 5,000; GET /pricing).'
      : `A batch on the ${plan} plan holds at most ${max} files; this one has ${files}. Split it into several ` +
          'batches, or upgrade to Scale (5,000 files per batch; GET /pricing).',
    { plan, max_files: max },
  );
}

function accepted(job: JobRecord, now: Date) {
  return {
    statusCode: 202 as const,
    body: batchView(job, undefined, now),
    headers: { location: `${BATCHES_PATH}/${job.jobId}`, 'retry-after': '2' },
  };
}

/** GET /v1/batches/{id}: the batch's state, counts, ETA and (done) its zip's download link. */
export function batchView(
  job: JobRecord,
  download: { url: string; expiresAt: Date } | undefined,
  now: Date,
): Record<string, unknown> {
  const b = job.batch;
  const done = job.batchDone ?? 0;
  const failed = job.batchFailed ?? 0;
  const total = b?.total ?? null;
  const processed = done + failed;
  let eta: number | null = null;
  if (job.status === 'done') eta = 0;
  else if (total !== null && b?.splitAt && processed > 0) {
    const elapsedS = (now.getTime() - new Date(b.splitAt).getTime()) / 1000;
    eta = Math.max(1, Math.round((elapsedS * (total - processed)) / processed));
  }
  const out: Record<string, unknown> = {
    id: job.jobId,
    object: 'batch',
    status: job.status,
    total,
    done,
    failed,
    refused: b?.refused ?? null,
    progress: job.status === 'done' ? 1 : total ? Math.round((processed / total) * 100) / 100 : 0,
    eta_s: eta,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    completed_at: job.completedAt ?? null,
    expires_at: new Date(availableUntil(job) * 1000).toISOString(),
    status_url: `${BATCHES_PATH}/${job.jobId}`,
  };
  if (job.status === 'done' && job.result) {
    out.filename = job.result.filename;
    out.bytes = job.result.bytes;
    if (download) {
      out.download_url = download.url;
      out.download_expires_at = download.expiresAt.toISOString();
    }
  }
  if (job.status === 'failed') out.reason = job.error ?? 'The batch failed.';
  return out;
}

export { downloadFor };

/**
 * The local queues live in memory: after a restart, put every unfinished batch's next steps back (a split not
 * recorded, the parts not counted, or the assembly). Each step is idempotent, so sending one twice is harmless.
 */
export async function requeueBatches(
  deps: Pick<BatchDeps, 'jobs' | 'assembleQueue'> & { batchQueue: MessageQueue },
  jobs: JobRecord[],
) {
  for (const job of jobs) {
    if (!job.batch) continue;
    if (job.status === 'queued') {
      await deps.assembleQueue.send({ jobId: job.jobId, step: 'split' } satisfies AssembleMessage);
      continue;
    }
    const parts = job.batch.parts ?? 0;
    const counted = await deps.jobs.partsCounted(job.jobId);
    const missing = Array.from({ length: parts }, (_, i) => i).filter((i) => !counted.has(i));
    for (const part of missing)
      await deps.batchQueue.send({ jobId: job.jobId, step: 'part', part } satisfies BatchStep);
    // The assembly follows the parts as they are counted.
    await deps.assembleQueue.send({ jobId: job.jobId } satisfies AssembleMessage);
  }
}
