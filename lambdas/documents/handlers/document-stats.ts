// GET /stats (route DocumentStats) — public counters of the documents service: documents rendered, by format.
// Counters, not scans. Named after its route: narration's GET /stats (handlers/stats.ts) reports other counters.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { FORMATS } from '../core/formats';

export const makeHandler = (deps: Pick<DocumentsDeps, 'growth'>) =>
  apiHandler(async () => {
    const item = (await deps.growth.getMany(['docs#stats'])).get('docs#stats') ?? {};
    const n = (k: string) => Number((item as Record<string, unknown>)[k] ?? 0);
    return json(
      200,
      {
        documents_rendered: n('documents'),
        by_format: Object.fromEntries(FORMATS.map((f) => [f, n(`format_${f}`)])),
        templates: 6,
        formats: FORMATS.length,
      },
      { 'cache-control': 'public, max-age=60, stale-while-revalidate=300' },
    );
  });

export const handler = makeHandler(awsDeps());
