// POST /demo/try — the landing page's "try it": up to 500 characters of text → a short MP3, no sign-up.
// JSON or form-urlencoded body {text, voice?, fmt?}; answers with the Conversion result (200), like /convert/text.
// It must not be a way around the free tier, so:
// - at most 500 characters (contract), MP3 only (asking for WAV or OGG is a 422 naming /convert/text);
// - its own per-IP counters (DEMO_PER_HOUR / DEMO_PER_DAY, default 10 and 30) under the subject `demo#ip#<hash>`,
//   separate from the free tier's `ip#<hash>`: using the demo never spends the free allowance, nor the reverse;
//   429 with Retry-After and RateLimit-* headers like the convert endpoints;
// - demo audio is kept DEMO_TTL_DAYS (default 1) instead of AUDIO_TTL_DAYS (30).
// Always anonymous: an Authorization header is ignored (not even checked), because a paid key has nothing to gain
// here (/convert/text is unlimited for it) and the demo widget never sends one.
import { ipSubject, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency, idempotentId } from '../../shared/idempotency/idempotency';
import { observeConversion } from '../metrics';
import { invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { awsDeps, type NarrationDeps } from '../deps';
import { startConversion } from '../use-cases/conversion';
import type { QuotaPolicy } from '../use-cases/free-charge';
import { demoTryRoute as route, DemoTryReq } from './demo-try.route';
import { assertSpeakable, resolveVoice } from '../requests';

/** The demo's counters: `demo#` + the free tier's hashed-IP subject, so the two never share a window. */
export function demoSubject(clientIp: string): string {
  return `demo#${ipSubject(clientIp)}`;
}

export function demoPolicy(deps: Pick<NarrationDeps, 'config'>): QuotaPolicy {
  return {
    rules: [
      { period: 'hour', limit: deps.config.DEMO_PER_HOUR },
      { period: 'day', limit: deps.config.DEMO_PER_DAY },
    ],
    refusal: (limit, period, retry) =>
      `Demo limit reached: ${limit} demos per ${period} per IP address. Try again in ${retry} seconds, ` +
      'or use POST /convert/text, which has its own free allowance and takes up to 100,000 characters.',
  };
}

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req, context) => {
      const body = validate(DemoTryReq, req.body());
      if (body.fmt !== undefined && body.fmt !== 'mp3')
        throw invalid(
          ['body', 'fmt'],
          "The demo produces MP3 only. Leave fmt out (or send 'mp3'), or use POST /convert/text for WAV or OGG.",
          'literal_error',
        );
      assertSpeakable(body.text);
      const voice = resolveVoice(body.voice);
      const caller: Caller = { kind: 'anonymous', subject: demoSubject(req.clientIp) };
      const out = await observeConversion(req.event.routeKey, 'mp3', () =>
        startConversion(deps, {
          // The demo's tries are samples under their own budget: each one is narrated (docs/reuse.md).
          reuse: false,
          audioId: idempotentId(req),
          signal: req.signal,
          remainingMs: () => context.getRemainingTimeInMillis(),
          text: body.text,
          voice,
          fmt: 'mp3',
          caller,
          quota: demoPolicy(deps),
          ttlDays: deps.config.DEMO_TTL_DAYS,
        }),
      );
      return json(out.statusCode, out.body, out.headers);
    },
    { maxBodyBytes: route.maxBodyBytes, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
