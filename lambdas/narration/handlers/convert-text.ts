// POST /convert/text — Spanish text to audio. JSON or form-urlencoded body {text, voice?, fmt?}.
// ≤ SYNC_MAX_CHARS characters: 200 with the Conversion result once the audio exists.
// Longer: 202 with the same fields plus status/progress; the worker finishes it (GET /audio/{id}). The request waits
// for the worker up to the wait window unless it sends `Prefer: respond-async` (RFC 7240): then a queued text is
// answered 202 at once (Preference-Applied says so), so a player can start on its segments while it is made.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency } from '../../shared/idempotency/idempotency';
import { observeConversion } from '../metrics';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { awsDeps, type NarrationDeps } from '../deps';
import { retentionDays, retentionLimits } from '../use-cases/data-control';
import { startConversion } from '../use-cases/conversion';
import { isDryRun } from '../core/preview';
import { convertTextRoute as route, ConvertTextReq } from './convert-text.route';
import { assertSpeakable, resolveVoice } from '../requests';
import { speechFields, speechRequest } from '../use-cases/speech-request';
import { previewAnswer, requestFields } from './convert-request';

/** RFC 7240: `Prefer: respond-async` (among other preferences, any case, with or without parameters). */
export function prefersRespondAsync(prefer: string | undefined): boolean {
  return (prefer ?? '').split(',').some((p) => p.split(';')[0]!.trim().toLowerCase() === 'respond-async');
}

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req, context) => {
      const body = validate(ConvertTextReq, req.body());
      assertSpeakable(body.text);
      const voice = resolveVoice(body.voice, body.engine);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const how = await speechRequest(
        deps,
        caller,
        { text: body.text, textType: body.text_type, lexicons: body.lexicons, loudness: body.loudness },
        voice,
      );
      const extra = speechFields(how);
      if (isDryRun(req.query))
        return previewAnswer(
          deps,
          how,
          {
            text: body.text,
            voice,
            fmt: body.fmt,
            ...(how.speech ? { chars: how.chars } : {}),
            ...(body.text_type === 'ssml' ? { headings: [] } : {}),
          },
          extra,
        );
      const respondAsync = prefersRespondAsync(req.headers.prefer);
      const out = await observeConversion(req.event.routeKey, body.fmt, () =>
        startConversion(deps, {
          ...requestFields(req, context, how),
          respondAsync,
          text: body.text,
          voice,
          fmt: body.fmt,
          caller,
          ...(how.speech ? { chars: how.chars } : {}),
          ttlDays: retentionDays(body.retention_days, caller, retentionLimits(deps.config)),
        }),
      );
      return json(
        out.statusCode,
        { ...out.body, ...extra },
        respondAsync && out.statusCode === 202
          ? { ...out.headers, 'preference-applied': 'respond-async' }
          : out.headers,
      );
    },
    { maxBodyBytes: route.maxBodyBytes, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
