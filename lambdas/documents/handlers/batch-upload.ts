// POST /v1/batches/upload — an upload slot for a zip of CFDI (use-cases/batches.ts): 201 with `upload_id` and a
// presigned S3 POST, as large as the caller's plan allows (no key: the free plan's small zip). No body is read.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { planOf } from '../core/plans';
import { createBatchUpload } from '../use-cases/batches';
import { batchOwner } from './batches';
import { batchUploadRoute as route } from './batch-upload.route';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'batchFiles' | 'now'>) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const slot = await createBatchUpload(deps, batchOwner(caller), planOf(caller));
      return json(201, slot, { 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400 },
  );

export const handler = makeHandler(awsDeps());
