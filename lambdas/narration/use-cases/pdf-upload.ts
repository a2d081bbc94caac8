// PDFs too large for one API request (API Gateway 10 MB, Lambda 6 MB with the body base64-encoded: about 4.5 MB of
// PDF reach a function): POST /convert/pdf/upload hands out an upload slot (an id and a presigned S3 POST bound to
// its key, application/pdf, 1 byte..20 MiB, 15 minutes), the caller sends the file straight to S3, then
// POST /convert/pdf {upload_id} converts it: only the caller that asked for the slot, within an hour, once. A
// conversion sent with an Idempotency-Key claims the id for its audio id (idempotentId): when its request dies holding
// the claim, the retry with the same key takes the claim over and continues that conversion (before, every retry got
// 409 "being converted by another request" and the caller never learned its audio). Talks only to ports. The conversion itself is startConversion's (free tier charged once, there).
import { randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/auth/resolve-caller';
import {
  Conflict,
  type DomainError,
  Forbidden,
  Gone,
  NotFound,
  QuotaExceeded,
  invalid,
} from '../../shared/errors';
import { logger } from '../../shared/logger';
import { rateLimitHeaders, type WindowRule } from '../../shared/quota/windows';
import type { NarrationDeps } from '../deps';
import type { PdfUpload } from '../ports';
import type { ConversionOutcome } from './job-answers';

/** The presigned POST works this long. */
export const UPLOAD_WINDOW_S = 15 * 60;
/** The id converts until this long after it was handed out (then 410). */
export const CONVERT_WINDOW_S = 60 * 60;
/** The record is kept (DynamoDB TTL) this long, so a late caller still learns the id expired. */
const RECORD_TTL_S = 24 * 60 * 60;
/** Upload slots an anonymous caller may ask for per hour (storage, not conversions: those are the free tier's). */
export const FREE_UPLOAD_SLOTS: WindowRule[] = [{ period: 'hour', limit: 30 }];

export const UPLOAD_PATH = '/convert/pdf/upload';

type Deps = Pick<NarrationDeps, 'uploads' | 'uploadRecords' | 'quotas' | 'now'>;

export function newUploadId(): string {
  return 'upl_' + randomBytes(16).toString('base64url');
}

const epochS = (d: Date) => Math.floor(d.getTime() / 1000);
const iso = (s: number) => new Date(s * 1000).toISOString();

/** The body of POST /convert/pdf/upload. */
export interface UploadSlot {
  upload_id: string;
  /** Where to send the file: a multipart/form-data POST with `fields` first, then the file as `file`. */
  upload: { method: 'POST'; url: string; fields: Record<string, string>; file_field: 'file' };
  max_bytes: number;
  content_type: 'application/pdf';
  upload_expires_at: string;
  convert_by: string;
  convert: { method: 'POST'; path: '/convert/pdf'; body: { upload_id: string } };
}

export async function createPdfUpload(
  deps: Deps,
  caller: Caller,
  maxBytes: number,
): Promise<{ body: UploadSlot; headers: Record<string, string> }> {
  const now = deps.now();
  let headers: Record<string, string> = {};
  if (caller.kind === 'anonymous') {
    const decision = await deps.quotas.consume(`upload#${caller.subject}`, FREE_UPLOAD_SLOTS, now);
    headers = rateLimitHeaders(decision, now);
    if (!decision.allowed)
      throw new QuotaExceeded(
        `Too many upload slots: ${decision.binding.limit} per hour per IP address. Convert the uploads you have, ` +
          `try again in ${headers['retry-after']} seconds, or use an API key of a paid plan.`,
        headers,
      );
  }
  const nowS = epochS(now);
  const upload: PdfUpload = {
    uploadId: newUploadId(),
    owner: caller.subject,
    status: 'pending',
    createdAt: now.toISOString(),
    uploadBy: nowS + UPLOAD_WINDOW_S,
    convertBy: nowS + CONVERT_WINDOW_S,
    expiresAt: nowS + RECORD_TTL_S,
  };
  await deps.uploadRecords.create(upload);
  const post = await deps.uploads.presignPdfUpload(upload.uploadId, {
    maxBytes,
    expiresInS: UPLOAD_WINDOW_S,
  });
  return {
    body: {
      upload_id: upload.uploadId,
      upload: { method: 'POST', url: post.url, fields: post.fields, file_field: 'file' },
      max_bytes: maxBytes,
      content_type: 'application/pdf',
      upload_expires_at: iso(upload.uploadBy),
      convert_by: iso(upload.convertBy),
      convert: { method: 'POST', path: '/convert/pdf', body: { upload_id: upload.uploadId } },
    },
    headers,
  };
}

const LOC = ['body', 'upload_id'];

/** The idempotent retry of the request that claimed `upload` and died: it may take the claim over. */
function claimedByThisRequest(upload: PdfUpload, audioId: string | undefined): boolean {
  return (
    audioId !== undefined &&
    upload.status === 'used' &&
    upload.claimedFor === audioId &&
    upload.convertedTo === undefined
  );
}

/**
 * Why `upload` cannot be converted by `owner` now, as the answer to send; undefined when it can. `audioId`: the
 * request's idempotent id (it sent an Idempotency-Key).
 */
function refusal(
  upload: PdfUpload | undefined,
  owner: string,
  nowS: number,
  audioId?: string,
): DomainError | undefined {
  if (!upload)
    return new NotFound(
      `Unknown upload_id. Use the upload_id returned by POST ${UPLOAD_PATH} (ids are kept for a day).`,
    );
  if (upload.owner !== owner)
    return new Forbidden(
      'This upload_id was issued to another caller. Convert it with the same API key (or, without a key, from the ' +
        `same IP address) that called POST ${UPLOAD_PATH}, or ask for your own upload_id.`,
    );
  if (upload.status === 'used' && !claimedByThisRequest(upload, audioId))
    return new Conflict(
      (upload.convertedTo
        ? `This upload was already converted (audio_id ${upload.convertedTo})`
        : 'This upload is being converted by another request') +
        `: an upload_id converts once. Fetch that audio, or upload the file again with a new POST ${UPLOAD_PATH}.`,
      upload.convertedTo ? { audio_id: upload.convertedTo } : {},
    );
  if (upload.convertBy <= nowS)
    return new Gone(
      `This upload_id expired at ${iso(upload.convertBy)} (ids convert within ${CONVERT_WINDOW_S / 60} minutes). ` +
        `Ask POST ${UPLOAD_PATH} for a new one and upload the file again.`,
    );
  return undefined;
}

/**
 * The uploaded PDF's bytes, after the checks that need no conversion: the id exists, is the caller's, unused and
 * unexpired; the file arrived and is at most `maxBytes` (S3 enforces the policy's range; the local emulator does
 * not, so it is checked here too: an oversize file is deleted and refused).
 */
export async function loadUploadedPdf(
  deps: Deps,
  uploadId: string,
  caller: Caller,
  maxBytes: number,
  label: string,
  /** The request's idempotent id (Idempotency-Key): the retry of a request that died holding the id may go on. */
  audioId?: string,
): Promise<Buffer> {
  const nowS = epochS(deps.now());
  const upload = await deps.uploadRecords.get(uploadId);
  const refused = refusal(upload, caller.subject, nowS, audioId);
  if (refused) throw refused;
  const file = await deps.uploads.getPdfUpload(uploadId, maxBytes);
  if (file.kind === 'missing' && upload!.uploadBy <= nowS)
    throw new Gone(
      `Nothing was uploaded for this upload_id, and its upload form expired at ${iso(upload!.uploadBy)}. Ask ` +
        `POST ${UPLOAD_PATH} for a new one and send the file within ${UPLOAD_WINDOW_S / 60} minutes.`,
    );
  if (file.kind === 'missing')
    throw new Conflict(
      `Nothing was uploaded for this upload_id yet. POST the file to the upload url with the fields returned by ` +
        `POST ${UPLOAD_PATH} (before ${iso(upload!.uploadBy)}), then call POST /convert/pdf again.`,
    );
  if (file.kind === 'too-large') {
    logger.info('uploaded pdf over the limit', { uploadId, bytes: file.bytes });
    await deps.uploads
      .deletePdfUpload(uploadId)
      .catch((e) => logger.warn('could not delete an oversize upload', { error: e as Error, uploadId }));
    throw invalid(
      LOC,
      `The uploaded file is ${file.bytes} bytes, over the ${label} limit. Split the PDF or reduce it (e.g. ` +
        'compress its images), then upload it again.',
      'file_too_large',
    );
  }
  return file.data;
}

/**
 * Runs `convert` (which charges the free tier, once) holding the upload: the id is claimed first with one
 * conditional write, so two concurrent requests never both convert (the loser gets the 409 of a used id). A
 * conversion that fails (429, 503: nothing charged or delivered) gives the id back for a retry; a successful one
 * records its audio id and deletes the file. `audioId` (the request's idempotent id, which `convert` converts
 * under): the claim is made for it, so the key's retry can take it over if this request dies holding it.
 */
export async function convertUploadOnce(
  deps: Deps,
  uploadId: string,
  caller: Caller,
  convert: () => Promise<ConversionOutcome>,
  audioId?: string,
): Promise<ConversionOutcome> {
  const nowS = epochS(deps.now());
  if (!(await deps.uploadRecords.claim(uploadId, caller.subject, nowS, audioId))) {
    const refused = refusal(await deps.uploadRecords.get(uploadId), caller.subject, nowS, audioId);
    // The record allowed it a moment ago and allows it again: a retry will do (nothing was charged).
    throw refused ?? new Conflict('This upload_id changed while it was checked. Please retry.');
  }
  let out: ConversionOutcome;
  try {
    out = await convert();
  } catch (err) {
    await deps.uploadRecords
      .release(uploadId)
      .catch((e) => logger.error('could not release an upload', { error: e as Error, uploadId }));
    throw err;
  }
  const converted = String(out.body['audio_id']);
  await deps.uploadRecords
    .complete(uploadId, converted)
    .catch((e) => logger.warn('could not note the audio of an upload', { error: e as Error, uploadId }));
  // The PDF is not needed any more (the lifecycle rule would remove it within a day).
  await deps.uploads
    .deletePdfUpload(uploadId)
    .catch((e) => logger.warn('could not delete a converted upload', { error: e as Error, uploadId }));
  return out;
}
