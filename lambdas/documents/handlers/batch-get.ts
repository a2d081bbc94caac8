// GET /v1/batches/{id} — a batch as its owner sees it (use-cases/batches.ts batchView): counts, ETA and, when
// done, the zip's presigned download_url. Owner: the key's account, or for a free-plan batch (started without a
// key) the address that started it. Other callers get 404, like an unknown id. A failed batch's `reason` comes in the
// caller's language (Accept-Language: Spanish from the error catalogue, else English).
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { preferredLanguage, translateMessage } from '../../shared/i18n/errors';
import { awsDeps, type DocumentsDeps } from '../deps';
import { JOB_ID_RE } from '../use-cases/jobs';
import { batchView, downloadFor } from '../use-cases/batches';
import { batchOwner } from './batches';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'jobs' | 'jobFiles' | 'config' | 'now'>) =>
  apiHandler(async (req) => {
    const owner = batchOwner(await resolveCaller(req.headers, req.clientIp, deps.keys));
    const id = req.pathParams.id ?? '';
    const notFound = new NotFound(
      `No batch '${id.slice(0, 64)}' for this account (batches are kept for a day).`,
    );
    if (!JOB_ID_RE.test(id)) throw notFound;
    const job = await deps.jobs.get(id);
    const now = deps.now();
    if (!job?.batch || job.owner !== owner || job.expiresAt * 1000 <= now.getTime()) throw notFound;
    const download = await downloadFor(deps.jobFiles, job, deps.config.JOB_DOWNLOAD_TTL_S, now);
    const pending = job.status === 'queued' || job.status === 'rendering';
    const view = batchView(job, download, now);
    if (typeof view.reason === 'string')
      view.reason =
        translateMessage(view.reason, preferredLanguage(req.headers['accept-language'])) ?? view.reason;
    return json(200, view, {
      'cache-control': 'no-store',
      ...(pending ? { 'retry-after': '2' } : {}),
    });
  });

export const handler = makeHandler(awsDeps());
