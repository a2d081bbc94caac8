// The prose part of GET /api: what the contract leaves "not shown", decided and written down.
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
  also for malformed JSON (\`json_invalid\`) and bodies over the endpoint's limit (\`body_too_large\`).
- Everything else: \`{"detail": "<message>"}\` — 401, 404, 405 (with \`Allow\`), 409 (a failed conversion),
  415 (unsupported Content-Type), 429, 503 (a backing service is down, or the request hit its time limit; retry:
  a request answered 503 is never counted and its audio is never kept). A 500 carries \`request_id\`.
- Every answer has an \`X-Request-Id\` header. CORS: any origin may call the API.
${NARRATION_HOOKS_OVERVIEW}`;
