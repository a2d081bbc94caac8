// POST /v1/batches/upload — an upload slot for a zip of CFDI (use-cases/batches.ts): 201 with `upload_id` and a
// presigned S3 POST. An API key is required (the batch and its charge belong to its account); no body is read.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { createBatchUpload } from '../use-cases/batches';
import { requireBatchKey } from './batches';
import { batchUploadRoute as route } from './batch-upload.route';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'batchFiles' | 'now'>) =>
  apiHandler(
    async (req) => {
      const caller = requireBatchKey(await resolveCaller(req.headers, req.clientIp, deps.keys));
      return json(201, await createBatchUpload(deps, caller.key), { 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400 },
  );

export const handler = makeHandler(awsDeps());
