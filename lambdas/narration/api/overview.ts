// The prose part of GET /api: what the contract leaves "not shown", decided and written down.
import type { ServiceApiInfo } from '../../shared/http/api-docs';
import { NARRATION_HOOKS_OVERVIEW } from './webhooks-doc';

export const NARRATION_OVERVIEW = `
Spanish text, PDFs and web articles become narrated audio (MP3, WAV, OGG) with voices for Mexico and Spain.
Contract version 1.0.0; paths carry no version prefix.

## Plans and limits

| Plan | Price | Conversions | Queue |
| --- | --- | --- | --- |
| Free | $0, no key | 5 per hour and 20 per day per client IP | standard |
| Pro | $7 per month | unlimited | priority |
| Lifetime | $49 once | unlimited, forever | priority |

Free-tier windows are **fixed UTC windows**: the hour restarts at minute 0, the day at 00:00 UTC. Counting is exact
under concurrency. Every free-tier conversion answers with \`RateLimit-Limit\`, \`RateLimit-Remaining\`,
\`RateLimit-Reset\` (seconds) and \`RateLimit-Policy\`; over the limit the answer is **429** with \`Retry-After\`.
Validation errors, previews (\`?dry_run=true\`) and conversions that fail on our side are not counted. The client IP
is the connection's address as API Gateway sees it; \`X-Forwarded-For\` is not trusted.

Texts up to 3,000 characters are narrated inside the request (**200**). Longer texts (up to 100,000) are queued:
**202** with \`status\`, \`progress\` and \`estimated_duration_s\` (\`duration_s\` is \`null\` until done) and a
\`Location\` to poll. Audio is kept 30 days (demo audio 1 day).

## Authentication

- No \`Authorization\` header: free tier, limited per IP.
- \`Authorization: Bearer <API key>\` of an active Pro or Lifetime plan: no limits, priority queue.
- An unknown, revoked or malformed key: **401** with \`WWW-Authenticate: Bearer\` (never silently downgraded).
- A key whose subscription lapsed (cancelled, unpaid): **402** pointing to the customer portal. Lifetime never lapses.

## Errors

- **422** \`{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}\` for every validation problem, all at once —
  also for malformed JSON (\`json_invalid\`), JSON nested more than 64 levels deep (\`json_too_deep\`, with the
  path to the first value too deep) and bodies over the endpoint's limit (\`body_too_large\`). The contract fixes
  422 for every invalid body of this API (FastAPI's convention: it has no 400), so a too-deep body is a 422 here;
  the Documents API answers the same refusal with its own contract's 400.
- Everything else: \`{"detail": "<message>"}\` — 401, 404, 405 (with \`Allow\`), 409 (a failed conversion),
  415 (unsupported Content-Type), 429, 503 (a backing service is down, or the request hit its time limit; retry:
  a request answered 503 is never counted and its audio is never kept). A 500 carries \`request_id\`.
- Every answer has an \`X-Request-Id\` header. CORS: any origin may call the API.
- **In Spanish**: send \`Accept-Language: es\` (or es-MX, es-ES; q-values are honoured) and every \`detail\` message
  and every item's \`msg\` comes in Spanish; English stays the default. Nothing else changes: same status, same
  keys, same \`loc\` and \`type\`. A \`{"detail": "<message>"}\` answer also carries \`X-Error-Code\`, a stable code
  for programs (e.g. \`free_tier_limit\`, \`audio_not_found\`, \`url_address_private\`) that does not change with the
  language or the wording.
${NARRATION_HOOKS_OVERVIEW}
## Idempotency-Key

\`POST /convert/text\`, \`/convert/url\`, \`/convert/pdf\`, \`/convert/pdf/upload\` (the same key gives the same upload slot back) and \`/demo/try\` accept \`Idempotency-Key: <1–255 visible ASCII characters>\` (a UUID). Keys belong to the caller (the API key sent, or the client address without one) and live 24 h. The same key with the same request (method, path, query, body) returns the first answer again — same status, body and \`Location\`, plus \`Idempotent-Replayed: true\` — and nothing is narrated or charged again. The same key with a different request: **422** \`idempotency_key_reused\`. While the first request is still running, the same key gets **409** \`{"detail": "...", "type": "idempotency_key_in_use"}\` with \`Retry-After: 2\` at once (retry to get the replay). Only final answers are kept (2xx and 400/404/413/415/422); after a 401/402/403/409/429/5xx the key is free again.

## Deleting audio and retention

\`DELETE /audio/{id}\` removes the audio file, its segments, timings and record: **204**, after which \`GET /audio/{id}\` answers 404 and presigned URLs handed out earlier stop working. Only the account that made it (any of its keys) may delete it — or, for audio made without a key, the same client address within a day of the conversion. Anyone else gets **404**, exactly as for an unknown id. \`retention_days\` on \`/convert/text\`, \`/convert/url\` and \`/convert/pdf\` (a form field of the multipart request, or next to \`upload_id\`): paid keys choose 1–30 days (default 30); the free tier's retention is fixed at 30 days (another value: 422 naming it). Past its retention an audio answers **410** until its record is purged (within about two days), then 404; its files (audio, segments, timings) are deleted then too — on the first request after it expires, and otherwise by the storage's own expiry rules (one per retention value) within a day.
`;

/** GET /api (handlers/api.ts): the overview above, and the page's words. */
export const NARRATION_API: ServiceApiInfo = {
  nombre: 'Narración',
  intro:
    'Convierte texto, PDF o artículos web en español en audio narrado (MP3, WAV u OGG) con voces de México y España.',
  overview: () => NARRATION_OVERVIEW,
};
