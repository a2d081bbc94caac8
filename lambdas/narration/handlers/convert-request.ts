// What POST /convert/text, /convert/url and /convert/pdf share once they hold the text to narrate and its speech
// request (use-cases/speech-request.ts): `?dry_run=true` answers the preview (core/preview.ts) with the route's
// extra fields, and a conversion starts with the request's own fields (its idempotent id, abort signal and
// deadline, the <break> pauses and the speech options). Each route adds what only it has (title, headings, chars).
import type { Context } from 'aws-lambda';
import { idempotentId } from '../../shared/idempotency/idempotency';
import type { ApiRequest } from '../../shared/http/request';
import { json, type ApiResult } from '../../shared/http/response';
import { previewConversion, type PreviewInput } from '../core/preview';
import { spokenText } from '../core/speech';
import type { NarrationDeps } from '../deps';
import type { ConversionInput } from '../use-cases/conversion-input';
import type { SpeechRequest } from '../use-cases/speech-request';

/** 200 with the dry run's preview of `text` as `how` would speak it, and the route's extra answer fields. */
export function previewAnswer(
  deps: Pick<NarrationDeps, 'config'>,
  how: SpeechRequest,
  input: Omit<PreviewInput, 'syncMaxChars' | 'pauseS' | 'spoken'>,
  extra: Record<string, unknown>,
): ApiResult {
  return json(200, {
    ...previewConversion({
      ...input,
      syncMaxChars: deps.config.SYNC_MAX_CHARS,
      pauseS: how.breakS,
      ...(how.speech ? { spoken: spokenText(how.pieces()) } : {}),
    }),
    ...extra,
  });
}

/** The conversion's fields that come from the request and its speech request, not from the route's body. */
export function requestFields(
  req: Pick<ApiRequest, 'headers' | 'clientIp' | 'signal'>,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  how: SpeechRequest,
): Pick<ConversionInput, 'audioId' | 'pauseS' | 'signal' | 'remainingMs' | 'speech'> {
  return {
    audioId: idempotentId(req),
    pauseS: how.breakS,
    signal: req.signal,
    remainingMs: () => context.getRemainingTimeInMillis(),
    ...(how.speech ? { speech: how.speech } : {}),
  };
}
