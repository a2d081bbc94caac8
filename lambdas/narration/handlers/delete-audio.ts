// DELETE /audio/{audio_id} — removes a conversion: its audio file(s), segments, timings and record → 204. After it
// GET /audio/{id} answers 404 and presigned URLs handed out before fail (the object is gone). Only the account that
// made it (any of its keys), or — without an API key — the same client address within a day of the conversion;
// everyone else gets 404, as for an unknown id (use-cases/data-control.ts).
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { awsDeps, type NarrationDeps } from '../deps';
import { deleteAudio } from '../use-cases/data-control';
import { audioFileId } from './audio-lookup';

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store' | 'keys' | 'now'>) =>
  apiHandler(async (req) => {
    const { audioId } = audioFileId(req.pathParams);
    const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
    await deleteAudio(deps, audioId, caller, req.clientIp);
    return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
  });

export const handler = makeHandler(awsDeps());
