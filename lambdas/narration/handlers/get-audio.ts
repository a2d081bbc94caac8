// GET /audio/{audio_id} — also reached as /audio/<id>.mp3 (the audio_url form).
// Ready: 302 to a short-lived presigned URL. Unknown: 404. Failed: 409 with the reason (submit again).
// Pending: a client asking for audio (anything but an explicit JSON Accept: <audio>, curl, a download) is held
// until the audio is ready (then 302) or the wait window passes, then sent a 307 to the same URL (with a `wait`
// counter and Retry-After), so it keeps waiting without ever saving a JSON body as its audio file. A client
// asking for JSON gets 202 {status, progress} + Retry-After at once.
// With `Accept: application/json` a finished audio answers 200 with its Conversion result (duration_s included)
// and the presigned `url`, instead of the redirect: how a client that got a 202 learns the final duration.
import { expireOnAccess } from '../use-cases/data-control';
import { apiHandler } from '../../shared/http/api-handler';
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json, redirect } from '../../shared/http/response';
import { awsDeps, type NarrationDeps } from '../deps';
import { audioUrl, waitBudgetMs, waitForJob } from '../use-cases/job-answers';
import type { AudioFormat } from '../core/formats';
import type { AudioRecord } from '../ports';
import { isSettled } from '../../shared/jobs/leased-job';

/** Only an explicit JSON preference: browsers' <audio> and curl's default (*\/*) get the redirect. */
function wantsJson(accept: string | undefined): boolean {
  return !!accept && /application\/json/i.test(accept) && !/audio\//i.test(accept);
}

/** Beyond its lease, how long a job may stay silent before it is reported as failed. */
const STALE_GRACE_S = 300;

/** A worker that died on its last attempt: the job will never finish. */
function isStale(rec: AudioRecord, config: { MAX_RECEIVE_COUNT: number }, nowS: number): boolean {
  return (
    rec.status === 'processing' &&
    (rec.attempts ?? 0) >= config.MAX_RECEIVE_COUNT &&
    rec.leaseUntil !== undefined &&
    rec.leaseUntil + STALE_GRACE_S < nowS
  );
}

const ID = /^([A-Za-z0-9_-]{1,64})(?:\.(mp3|wav|ogg))?$/;

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store' | 'config'>) =>
  apiHandler(async (req, context) => {
    const raw = req.pathParams['audio_id'] ?? '';
    const m = ID.exec(raw);
    if (!m)
      throw invalid(
        ['path', 'audio_id'],
        'audio_id should be the id returned by a convert endpoint, optionally followed by .mp3, .wav or .ogg',
        'string_pattern_mismatch',
      );
    const audioId = m[1]!;
    const ext = m[2] as AudioFormat | undefined;
    let rec = await deps.audio.get(audioId);
    const asJson = wantsJson(req.headers['accept']);
    const nowS = Math.floor(Date.now() / 1000);
    if (rec && !asJson && !isSettled(rec) && !isStale(rec, deps.config, nowS) && (!ext || ext === rec.fmt)) {
      rec =
        (await waitForJob(
          deps,
          audioId,
          waitBudgetMs(deps, { remainingMs: () => context.getRemainingTimeInMillis() }),
          req.signal,
        )) ?? rec;
      if (!isSettled(rec)) {
        const wait = Math.min(999, (Number.parseInt(req.query['wait'] ?? '0', 10) || 0) + 1);
        return {
          statusCode: 307,
          headers: {
            location: `/audio/${raw}?wait=${wait}`,
            'retry-after': '1',
            'cache-control': 'no-store',
          },
          body: '',
        };
      }
    }
    if (!rec)
      throw new NotFound(
        'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
      );
    await expireOnAccess(deps, rec, new Date()); // 410 past its retention, files deleted (use-cases/data-control.ts)
    if (ext && ext !== rec.fmt)
      throw new NotFound(
        `This audio was produced as ${rec.fmt.toUpperCase()}: fetch ${audioUrl(audioId, rec.fmt)}.`,
      );
    // A worker that died on the last attempt leaves the job 'processing' with a lapsed lease while SQS has moved
    // its message to the DLQ: report it as failed instead of pending forever.
    if (isStale(rec, deps.config, nowS)) {
      throw new Conflict(
        'The conversion stopped responding after its last attempt. Please submit the text again.',
        {
          audio_id: audioId,
          status: 'failed',
        },
      );
    }
    switch (rec.status) {
      case 'done': {
        const url = await deps.store.presignAudio(audioId, rec.fmt, deps.config.PRESIGN_TTL_S);
        const noStore = { 'cache-control': 'private, no-store' };
        if (asJson)
          return json(
            200,
            {
              audio_id: audioId,
              audio_url: audioUrl(audioId, rec.fmt),
              duration_s: rec.durationS,
              voice: rec.voice,
              chars: rec.chars,
              ...(rec.title !== undefined ? { title: rec.title } : {}),
              status: 'done',
              progress: 1,
              url,
              expires_in_s: deps.config.PRESIGN_TTL_S,
            },
            noStore,
          );
        return redirect(url, noStore);
      }
      case 'failed':
        throw new Conflict(rec.error ?? 'The conversion failed. Please submit the text again.', {
          audio_id: audioId,
          status: 'failed',
        });
      default:
        return json(
          202,
          {
            audio_id: audioId,
            audio_url: audioUrl(audioId, rec.fmt),
            status: rec.status,
            progress: rec.progress ?? 0,
            voice: rec.voice,
            chars: rec.chars,
            ...(rec.title !== undefined ? { title: rec.title } : {}),
          },
          { 'retry-after': rec.status === 'queued' ? '5' : '2', 'cache-control': 'no-store' },
        );
    }
  });

export const handler = makeHandler(awsDeps());
