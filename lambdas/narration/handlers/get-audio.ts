// GET /audio/{audio_id} — also reached as /audio/<id>.mp3 (the audio_url form).
// Ready: 302 to a short-lived presigned URL. Pending: 202 {status, progress} + Retry-After. Unknown: 404.
// Failed: 409 with the reason (the job cannot produce audio; submit again).
// With `Accept: application/json` a finished audio answers 200 with its Conversion result (duration_s included)
// and the presigned `url`, instead of the redirect: how a client that got a 202 learns the final duration.
import { apiHandler } from '../../shared/http/api-handler';
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json, redirect } from '../../shared/http/response';
import { awsDeps, type NarrationDeps } from '../deps';
import { audioUrl } from '../use-cases/conversion';
import type { AudioFormat } from '../core/formats';

/** Only an explicit JSON preference: browsers' <audio> and curl's default (*\/*) get the redirect. */
function wantsJson(accept: string | undefined): boolean {
  return !!accept && /application\/json/i.test(accept) && !/audio\//i.test(accept);
}

/** Beyond its lease, how long a job may stay silent before it is reported as failed. */
const STALE_GRACE_S = 300;

const ID = /^([A-Za-z0-9_-]{1,64})(?:\.(mp3|wav|ogg))?$/;

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store' | 'config'>) =>
  apiHandler(async (req) => {
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
    const rec = await deps.audio.get(audioId);
    if (!rec)
      throw new NotFound(
        'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
      );
    if (ext && ext !== rec.fmt)
      throw new NotFound(
        `This audio was produced as ${rec.fmt.toUpperCase()}: fetch ${audioUrl(audioId, rec.fmt)}.`,
      );
    // A worker that died on the last attempt leaves the job 'processing' with a lapsed lease while SQS has moved
    // its message to the DLQ: report it as failed instead of pending forever.
    const nowS = Math.floor(Date.now() / 1000);
    if (
      rec.status === 'processing' &&
      (rec.attempts ?? 0) >= deps.config.MAX_RECEIVE_COUNT &&
      rec.leaseUntil !== undefined &&
      rec.leaseUntil + STALE_GRACE_S < nowS
    ) {
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
        if (wantsJson(req.headers['accept']))
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
          },
          { 'retry-after': rec.status === 'queued' ? '5' : '2', 'cache-control': 'no-store' },
        );
    }
  });

export const handler = makeHandler(awsDeps());
