// GET /v1/jobs/{id} — an async render (POST /v1/render with options.async) as its account sees it: 200 {id, status
// queued|rendering|done|failed, progress, ..., download_url + download_expires_at when done (presigned, fresh on
// every GET), reason (+ problems) when failed, event + deliveries (webhook attempts)}. Jobs belong to the account
// of the key that created them (or that key, without an account): any other caller gets 404, like an unknown id.
// No key → 401. Jobs are kept a day, or options.expires_in seconds: after that 410 (the record lingers a day) and the
// result file is deleted on that request (the results/ lifecycle rule is the backstop), then 404.
import { apiHandler } from '../../shared/http/api-handler';
import { Gone, NotFound } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { JOB_ID_RE, availableUntil, downloadFor, ownerOf, publicJob } from '../use-cases/jobs';
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
    // DynamoDB deletes expired items lazily: a record past its TTL is gone as far as callers are concerned.
    if (!job || job.owner !== ownerOf(key) || job.expiresAt * 1000 <= now.getTime()) throw notFound;
    const until = availableUntil(job);
    if (until * 1000 <= now.getTime()) {
      if (job.result)
        await deps.jobFiles
          .deleteResult(job.result)
          .catch((e) =>
            logger.warn('expired job result not deleted (the lifecycle rule will)', { error: e as Error }),
          );
      throw new Gone(
        `Job '${id}' expired at ${new Date(until * 1000).toISOString()} (its result is kept for options.expires_in ` +
          'seconds, a day by default) and its document was deleted. Render it again to get a new one.',
      );
    }
    const download = await downloadFor(deps.jobFiles, job, deps.config.JOB_DOWNLOAD_TTL_S, now);
    const pending = job.status === 'queued' || job.status === 'rendering';
    return json(200, publicJob(job, download), {
      'cache-control': 'no-store',
      ...(pending ? { 'retry-after': '2' } : {}),
    });
  });

export const handler = makeHandler(awsDeps());
