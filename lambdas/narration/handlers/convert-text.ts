// POST /convert/text — Spanish text to audio. JSON or form-urlencoded body {text, voice?, fmt?}.
// ≤ SYNC_MAX_CHARS characters: 200 with the Conversion result once the audio exists.
// Longer: 202 with the same fields plus status/progress; the worker finishes it (GET /audio/{id}).
import { z } from 'zod';
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { invalid } from '../../shared/http/errors';
import { json } from '../../shared/http/response';
import { chars, validate } from '../../shared/http/validation';
import { awsDeps, type NarrationDeps } from '../deps';
import { startConversion } from '../domain/conversion';
import { isDryRun, previewConversion } from '../domain/preview';
import { FORMATS } from '../domain/formats';
import { DEFAULT_VOICE_ID, VOICES, findVoice, type Voice } from '../domain/voices';
import { narrationManifest } from '../routes';

export const MAX_TEXT_CHARS = 100_000;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** Shared by the three convert endpoints. */
export const voiceField = z.preprocess(emptyToUndefined, z.string().max(64).optional());
export const fmtField = z.preprocess((v) => lower(emptyToUndefined(v)), z.enum(FORMATS).default('mp3'));

export const ConvertTextReq = z.object({
  text: chars(1, MAX_TEXT_CHARS),
  voice: voiceField,
  fmt: fmtField,
});

/** Refuses texts a voice cannot read (only spaces, punctuation or symbols) before anything is charged. */
export function assertSpeakable(text: string, loc: (string | number)[] = ['body', 'text']): void {
  if (!/[\p{L}\p{N}]/u.test(text))
    throw invalid(loc, 'Text has nothing to read aloud: it contains no letters or digits', 'value_error');
}

export function resolveVoice(id: string | undefined): Voice {
  const voice = findVoice(id ?? DEFAULT_VOICE_ID);
  if (!voice)
    throw invalid(
      ['body', 'voice'],
      `Unknown voice '${id}'. Use one of: ${VOICES.map((v) => v.id).join(', ')} (see GET /voices).`,
      'value_error',
    );
  return voice;
}

const route = narrationManifest.routes.find((r) => r.id === 'ConvertText')!;

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const body = validate(ConvertTextReq, req.body());
      assertSpeakable(body.text);
      const voice = resolveVoice(body.voice);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      if (isDryRun(req.query))
        return json(
          200,
          previewConversion({
            text: body.text,
            voice,
            fmt: body.fmt,
            syncMaxChars: deps.config.SYNC_MAX_CHARS,
          }),
        );
      const out = await startConversion(deps, { text: body.text, voice, fmt: body.fmt, caller });
      return json(out.statusCode, out.body, out.headers);
    },
    { maxBodyBytes: route.maxBodyBytes },
  );

export const handler = makeHandler(awsDeps());
