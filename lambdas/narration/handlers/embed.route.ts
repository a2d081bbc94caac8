// GET /embed.js: the route's spec, next to its handler (embed.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const embedRoute = {
  id: 'Embed',
  method: 'GET',
  path: '/embed.js',
  handler: 'lambdas/narration/handlers/embed.ts',
  memoryMb: 128,
  timeoutS: 3,
  access: {},
  docs: {
    summary: 'Embeddable player script',
    tags: ['meta'],
    description:
      'Dependency-free player: `<script src=".../embed.js" data-audio-id="ID" async></script>` plays an audio; ' +
      '`data-narrate="page"` (optional data-voice, data-fmt) narrates the page on click through POST /convert/url ' +
      'and GET /audio/{id}. Weak ETag (304 on If-None-Match), Cache-Control public, max-age=3600, ' +
      'stale-while-revalidate=86400; brotli/gzip per Accept-Encoding. See docs/embed.md.',
    responses: {
      200: { description: 'The player script', contentType: 'application/javascript' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
} satisfies RouteSpec;
