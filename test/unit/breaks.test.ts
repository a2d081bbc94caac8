// Free work is bounded: <break> silence counts toward a narration's length (estimates and dry runs include it) and
// its sum is capped per plan (422 naming the cap); a free caller whose conversions keep being cut at the route's
// deadline (answered 503, not charged) is refused (429) after FREE_CUT_PER_HOUR of them in the hour.
import { breakSeconds, MAX_BREAKS_S } from '../../lambdas/narration/core/breaks';
import { parsePieces } from '../../lambdas/narration/core/speech';
import { previewConversion } from '../../lambdas/narration/core/preview';
import { VOICES } from '../../lambdas/narration/core/voices';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import { speechRequest } from '../../lambdas/narration/use-cases/speech-request';
import type { ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { QuotaExceeded, Unavailable } from '../../lambdas/shared/errors';
import { fakeNarrationDeps } from '../fakes/narration';
import { rejectsAsHttp } from '../helpers/as-http';

const voice = VOICES[0]!;
const anonymous = { kind: 'anonymous' as const, subject: 'ip#breaks' };
const pro = {
  kind: 'key' as const,
  subject: 'key#p',
  key: { plan: 'pro', keyHash: 'a'.repeat(64) } as ApiKeyRecord,
};
const flood = (n: number, time = '10s') =>
  `<speak>${Array.from({ length: n }, (_, i) => `Hola ${i}.<break time="${time}"/>`).join('')}</speak>`;

test('breakSeconds: explicit times as given, strengths as their usual lengths', () => {
  expect(breakSeconds(parsePieces(flood(3), 'ssml', voice.lang).pieces)).toBe(30);
  expect(
    breakSeconds(
      parsePieces('<speak>a<break time="500ms"/>b<break strength="none"/>c</speak>', 'ssml', voice.lang)
        .pieces,
    ),
  ).toBe(0.5);
});

test('the break flood (600 × 10 s) is refused on the free plan with 422 naming the cap; a paid plan has a higher one', async () => {
  const { deps } = fakeNarrationDeps();
  const refused = await rejectsAsHttp(
    speechRequest(deps, anonymous, { text: flood(600), textType: 'ssml' }, voice),
  );
  expect(refused.statusCode).toBe(422);
  expect(JSON.stringify(refused.detail)).toContain(`at most ${MAX_BREAKS_S.free} s of pauses`);
  expect((await speechRequest(deps, anonymous, { text: flood(6), textType: 'ssml' }, voice)).breakS).toBe(60);
  expect((await speechRequest(deps, pro, { text: flood(100), textType: 'ssml' }, voice)).breakS).toBe(1000);
  await expect(speechRequest(deps, pro, { text: flood(181), textType: 'ssml' }, voice)).rejects.toThrow(
    /1800 s/,
  );
});

test('the dry run estimate includes the pauses', () => {
  const base = { text: 'Hola.', voice, fmt: 'mp3' as const, syncMaxChars: 3000 };
  expect(previewConversion(base).estimated_duration_s).toBe(0);
  expect(previewConversion({ ...base, pauseS: 50 }).estimated_duration_s).toBe(50);
});

test('requests cut at their deadline count against the caller: past FREE_CUT_PER_HOUR, 429 until the hour ends', async () => {
  const T0 = new Date('2026-11-21T10:20:00Z');
  const { deps } = fakeNarrationDeps({ config: { FREE_CUT_PER_HOUR: 3 }, now: () => T0 });
  const cut = new AbortController();
  cut.abort(); // the route's deadline already answered 503
  const input = { text: 'Hola mundo.', voice, fmt: 'mp3' as const, caller: anonymous, signal: cut.signal };
  for (let i = 0; i < 3; i++) await expect(startConversion(deps, input)).rejects.toBeInstanceOf(Unavailable);
  const refused = await startConversion(deps, input).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(QuotaExceeded);
  expect((refused as QuotaExceeded).rateLimit['retry-after']).toBe(String(40 * 60));
  // Nothing was charged for the cut requests (usage = deliveries); a paid key is not affected.
  expect((await deps.quotas.peek(anonymous.subject, [{ period: 'hour', limit: 5 }], T0))[0]!.used).toBe(0);
  await expect(startConversion(deps, { ...input, caller: pro, signal: undefined })).resolves.toMatchObject({
    statusCode: 200,
  });
});
