// GET /api of either service: the API description as OpenAPI 3.1 JSON for `?format=json` or
// `Accept: application/json` (unless `?format=html`), else the interactive reference: a Spanish page running
// Swagger UI (served by us from ./api-reference.generated.ts at GET /api/assets/{file}, no CDN) on that same JSON,
// whose "Try it out" calls this origin. The page has the strict CSP of every page (./static-assets.ts): scripts and
// styles only from 'self', no inline script (the init script is a file). The document is built on the first request
// of a container (from the service's manifest and overview: ./openapi.ts) and kept.
import type { ServiceManifest } from '../manifest';
import { apiHandler } from './api-handler';
import { buildOpenApi } from './openapi';
import { API_REFERENCE_FILES } from './api-reference.generated';
import { json } from './response';
import { pageSecurityHeaders, staticSite } from './static-assets';

/** What the page says above the reference, in Spanish (es-MX). */
export interface ApiPageCopy {
  /** e.g. "API de Narración" */
  title: string;
  /** One or two sentences: what the API does. */
  intro: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function apiReferencePage(copy: ApiPageCopy): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Referencia de la ${esc(copy.title)}</title>
<link rel="stylesheet" href="/api/assets/swagger-ui.css">
<link rel="stylesheet" href="/api/assets/api-reference.css">
</head>
<body>
<header class="intro">
<h1>Referencia de la ${esc(copy.title)}</h1>
<p>${esc(copy.intro)}</p>
<p>Abre un endpoint, pulsa <strong>Probar</strong> y luego <strong>Ejecutar</strong>: la petición se hace de verdad a esta API desde tu navegador. Para los endpoints de pago, pon tu clave en <strong>Autorizar</strong>. Las descripciones de la referencia están en inglés; los nombres de campos son los del contrato.</p>
<p><a href="/api?format=json">Descarga el documento OpenAPI 3.1 (JSON)</a></p>
</header>
<main id="swagger-ui" data-spec="/api?format=json"></main>
<noscript><p>Esta referencia necesita JavaScript. Sin él, lee el <a href="/api?format=json">documento OpenAPI (JSON)</a>.</p></noscript>
<script src="/api/assets/swagger-ui-bundle.js"></script>
<script src="/api/assets/api-reference.js"></script>
</body>
</html>
`;
}

/** The GET /api and GET /api/assets/{file} handler of a service whose OpenAPI document `build()` returns. */
export function apiDocsHandler(build: () => Promise<Record<string, unknown>>, copy: ApiPageCopy) {
  let doc: Promise<Record<string, unknown>> | undefined;
  const page = staticSite(
    {
      ...API_REFERENCE_FILES,
      'api.html': {
        type: 'text/html; charset=utf-8',
        body: apiReferencePage(copy),
        cacheControl: 'public, max-age=300',
      },
    },
    { '/api': 'api.html' },
    pageSecurityHeaders(),
  );
  return apiHandler(async (req, ctx) => {
    const wantsJson =
      req.query['format'] === 'json' || /application\/json/i.test(req.headers['accept'] ?? '');
    if (req.pathParams['file'] !== undefined || !wantsJson || req.query['format'] === 'html')
      return page(req, ctx);
    doc ??= build();
    return json(200, await doc, { 'cache-control': 'public, max-age=300' });
  });
}

/** What a service's GET /api says besides its routes. */
export interface ServiceApiInfo {
  /** The service's name in Spanish: the page is "Referencia de la API de <nombre>". */
  nombre: string;
  /** One or two sentences for the page: what the API does (Spanish). */
  intro: string;
  /** The document's description (Markdown), read when the document is first built. */
  overview: () => string;
}

/**
 * GET /api of a service: `document()` builds its OpenAPI document (title "<Service> API", version 1.0.0, the
 * contract's) from the manifest and the overview; `makeHandler()` serves it and the page.
 */
export function serviceApiDocs(manifest: ServiceManifest, info: ServiceApiInfo) {
  const title = `${manifest.service[0]!.toUpperCase()}${manifest.service.slice(1)} API`;
  const document = () => buildOpenApi(manifest, { title, version: '1.0.0', description: info.overview() });
  return {
    document,
    makeHandler: () => apiDocsHandler(document, { title: `API de ${info.nombre}`, intro: info.intro }),
  };
}
