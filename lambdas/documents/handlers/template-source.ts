// GET /templates/{slug}/source — the template's Jinja2 source, to copy and adapt as custom_html.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { TEMPLATE_SLUGS, findTemplate, templateSource } from '../domain/template-registry';

export const makeHandler = () =>
  apiHandler(async (req) => {
    const slug = req.pathParams['slug'] ?? '';
    if (!findTemplate(slug))
      throw new NotFound(
        `Unknown template '${slug}'. Templates: ${TEMPLATE_SLUGS.join(', ')} (GET /templates).`,
      );
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
      body: templateSource(slug),
    };
  });

export const handler = makeHandler();
