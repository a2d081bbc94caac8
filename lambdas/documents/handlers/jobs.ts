// GET /v1/jobs/{id} — an async render (POST /v1/render with options.async) as its account sees it: 200 {id, status
// queued|rendering|done|failed, progress, ..., download_url + download_expires_at when done (presigned, fresh on
// every GET), reason (+ problems) when failed, event + deliveries (webhook attempts)}. Jobs belong to the account
// of the key that created them (or that key, without an account): any other caller gets 404, like an unknown id.
// No key → 401. Jobs are kept one day, like their result.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { JOB_ID_RE, ownerOf, publicJob } from '../use-cases/jobs';
import { requireKeyHolder } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'jobs' | 'jobFiles' | 'config' | 'now'>) =>
  apiHandler(async (req) => {
    const key = await requireKeyHolder(
      req.headers,
      deps.keys,
      'a job is shown to the account that created it.',
    );
    const id = req.pathParams.id ?? '';
    const notFound = new NotFound(
      `No job '${id.slice(0, 64)}' for this account (jobs are kept for a day after they are created).`,
    );
    if (!JOB_ID_RE.test(id)) throw notFound;
    const job = await deps.jobs.get(id);
    const now = deps.now();
    // DynamoDB deletes expired items lazily: an expired job is gone as far as callers are concerned.
    if (!job || job.owner !== ownerOf(key) || job.expiresAt * 1000 <= now.getTime()) throw notFound;
    let download: { url: string; expiresAt: Date } | undefined;
    if (job.status === 'done' && job.result) {
      const ttl = deps.config.JOB_DOWNLOAD_TTL_S;
      download = {
        url: await deps.jobFiles.presignResult(job.result, ttl),
        expiresAt: new Date(now.getTime() + ttl * 1000),
      };
    }
    const pending = job.status === 'queued' || job.status === 'rendering';
    return json(200, publicJob(job, download), {
      'cache-control': 'no-store',
      ...(pending ? { 'retry-after': '2' } : {}),
    });
  });

export const handler = makeHandler(awsDeps());
