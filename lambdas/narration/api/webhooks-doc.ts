// What GET /api says about narration's completion webhooks: the platform's builder (lambdas/shared/webhooks/api-docs.ts)
// bound to narration's event types, Voz-* headers, paid plans and 422s; platform.ts gives the route
// docs to the specs.
import { webhookDocs } from '../../shared/webhooks/api-docs';
import { AUDIO_EVENT_TYPES } from '../core/audio-events';
import { NARRATION_WEBHOOK_BRAND } from '../use-cases/webhooks';
import { ValidationError } from './schemas';

export const NARRATION_WEBHOOK_DOCS = webhookDocs({
  eventTypes: AUDIO_EVENT_TYPES,
  brand: NARRATION_WEBHOOK_BRAND,
  plan: 'Paid keys (Pro, Lifetime)',
  invalid: { status: 422, schema: ValidationError },
  afterDelete: 'Conversions ending afterwards send nothing; events already queued are dropped.',
});

export const NARRATION_HOOKS_OVERVIEW = NARRATION_WEBHOOK_DOCS.overview(
  'Completion webhooks (Pro, Lifetime)',
  'Instead of polling `GET /audio/{id}`, register one endpoint per account and receive an event when each conversion made with a key of the account ends (inline or queued).',
  '`audio.completed` (`data.audio` = the Conversion result: `audio_id`, `audio_url`, `duration_s`, `voice`, `chars`, `title` for URLs, plus `status`, `created_at`, `expires_at`) or `audio.failed` (with `reason`). The body is `{"id": "evt_…", "object": "event", "type": "audio.completed", "created": …, "api_version": "v1", "data": {"audio": {…}}}`.',
);
