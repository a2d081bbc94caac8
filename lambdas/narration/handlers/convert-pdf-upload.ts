// POST /convert/pdf/upload — an upload slot for a PDF too large for one API request (over about 4.5 MB in AWS):
// 201 with `upload_id` and a presigned S3 POST (url + fields; S3 accepts exactly one application/pdf of at most
// 20 MB under that id's key for 15 minutes). The caller POSTs the file there, then POST /convert/pdf
// {"upload_id": ...} with the usual voice/fmt. No body needed; nothing is charged here (the conversion is).
// Without an API key at most 30 slots per hour per IP address (429 beyond). Idempotency-Key: the same key and body
// within 24 h answer the same slot again (not a second one, not charged against the 30); another body → 422.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency } from '../../shared/idempotency/idempotency';
import { json } from '../../shared/http/response';
import { awsDeps, type NarrationDeps } from '../deps';
import { MAX_PDF_BYTES } from '../requests';
import { createPdfUpload } from '../use-cases/pdf-upload';
import { convertPdfUploadRoute as route } from './convert-pdf-upload.route';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const out = await createPdfUpload(deps, caller, MAX_PDF_BYTES);
      return json(201, out.body, { ...out.headers, 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
