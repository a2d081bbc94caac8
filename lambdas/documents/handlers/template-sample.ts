// GET /templates/{slug}/sample.pdf — the template rendered from its sample data (no watermark: it is our own
// showcase). Rendered once per warm container and cached; browsers and CDNs may cache it for a day.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { sharedRenderer } from '../deps';
import { parseRenderRequest } from '../request/validate';
import { renderDocument } from '../use-cases/render-request';
import { TEMPLATE_SLUGS, findTemplate } from '../domain/template-registry';

export const makeHandler = (renderer = sharedRenderer) => {
  const cache = new Map<string, Promise<Buffer>>();
  return apiHandler(
    async (req) => {
      const slug = (req.pathParams['slug'] ?? '').toLowerCase();
      const template = findTemplate(slug);
      if (!template || !template.meta.formats.includes('pdf'))
        throw new NotFound(
          `Unknown template '${slug}'. Templates: ${TEMPLATE_SLUGS.join(', ')} (GET /templates).`,
        );
      let pdf = cache.get(slug);
      if (!pdf) {
        pdf = (async () => {
          const request = parseRenderRequest({ template: slug, format: 'pdf', data: template.sample });
          return (await renderDocument(request, await renderer())).bytes;
        })();
        cache.set(slug, pdf);
        pdf.catch(() => cache.delete(slug));
      }
      return {
        statusCode: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="${slug}-ejemplo.pdf"`,
          'cache-control': 'public, max-age=86400',
        },
        body: (await pdf).toString('base64'),
        isBase64Encoded: true,
      };
    },
    { invalidStatus: 400 },
  );
};

export const handler = makeHandler();
