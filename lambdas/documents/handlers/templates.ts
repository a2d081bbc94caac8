// GET /templates — every built-in template: purpose, formats, JSON Schema of its data (from the zod schemas),
// sample data, and the URLs of its source and sample PDF.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { listTemplates } from '../domain/template-registry';

export const makeHandler = () => {
  let body: ReturnType<typeof listTemplates> | undefined;
  return apiHandler(async () =>
    json(200, (body ??= listTemplates()), { 'cache-control': 'public, max-age=3600' }),
  );
};

export const handler = makeHandler();
