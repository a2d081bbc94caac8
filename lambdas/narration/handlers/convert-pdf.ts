// POST /convert/pdf — a PDF to audio, sent either
//  - in the request: multipart/form-data with file (≤ 20 MB; in AWS the whole request must stay under about 4.5 MB,
//    and larger bodies are answered 413 naming the upload path), voice?, fmt? (default mp3), lexicons? ("a,b"),
//    retention_days?; or
//  - by reference: JSON or form-urlencoded {upload_id, voice?, fmt?, lexicons?, retention_days?}, the id from
//    POST /convert/pdf/upload after the
//    file was POSTed to S3 with its presigned form. Only the caller that asked for the id may convert it, within an
//    hour, once (404 unknown, 403 someone else's, 409 already converted or not uploaded yet, 410 expired).
// The text is extracted and cleaned for listening (running headers/footers and page numbers dropped, hyphenated
// line breaks joined, columns read in order) in a fenced worker thread, then narrated exactly like /convert/text:
// ≤ SYNC_MAX_CHARS → 200 with the Conversion result, longer → 202 queued. Free-tier limits apply as for text and
// are charged only once the PDF has yielded text to narrate. Every problem with the file is a 422 at
// loc ['body', 'file'] (or ['body', 'upload_id']) saying why and what to do. `?dry_run=true` previews (text,
// chapters from the PDF's bookmarks, estimated duration) without charging or using up an upload_id.
import { resolveCaller, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency, idempotentId } from '../../shared/idempotency/idempotency';
import { observeConversion } from '../metrics';
import { invalid } from '../../shared/errors';
import { HttpError } from '../../shared/http/errors';
import { parseMultipart } from '../../shared/http/multipart';
import type { ApiRequest } from '../../shared/http/request';
import { json, type ApiResult } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { logger } from '../../shared/logger';
import { awsDeps, type NarrationDeps } from '../deps';
import { startConversion } from '../use-cases/conversion';
import type { ConversionOutcome } from '../use-cases/job-answers';
import { retentionDays, retentionLimits } from '../use-cases/data-control';
import { speechFields, speechRequest } from '../use-cases/speech-request';
import { previewAnswer, requestFields } from './convert-request';
import { convertUploadOnce, loadUploadedPdf } from '../use-cases/pdf-upload';
import { isDryRun } from '../core/preview';
import type { AudioFormat } from '../core/formats';
import type { Voice } from '../core/voices';
import { PdfRejected, extractPdf, type PdfLimits } from '../pdf/index';
import { convertPdfRoute as route, ConvertPdfFields, ConvertPdfUploadReq } from './convert-pdf.route';
import { MAX_PDF_BYTES, MAX_PDF_LABEL, MAX_TEXT_CHARS, assertSpeakable, resolveVoice } from '../requests';

export { MAX_PDF_BYTES, ConvertPdfFields };

export interface ConvertPdfOptions {
  /** Extraction limits (tests lower the time budget). */
  limits?: Partial<PdfLimits>;
}

interface PdfSource {
  bytes: Buffer;
  /** Where problems with the file are reported: ['body', 'file'] or ['body', 'upload_id']. */
  loc: (string | number)[];
  voice: Voice;
  fmt: AudioFormat;
  caller: Caller;
  /** Lexicons named by the request (else the account's default applies). */
  lexicons?: string[];
  /** Days the audio is kept (retention_days within the plan's limits). */
  ttlDays: number;
  /** Set for an upload_id: the conversion then holds the upload (single use). */
  uploadId?: string;
}

const mediaType = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const BY_REFERENCE = ['', 'application/json', 'application/x-www-form-urlencoded'];

async function fromRequest(req: ApiRequest, deps: NarrationDeps): Promise<PdfSource> {
  const type = mediaType(req.headers['content-type']);
  if (type === 'multipart/form-data') {
    const form = await parseMultipart(req.rawBody(), req.headers['content-type'], {
      file: { field: 'file', maxBytes: MAX_PDF_BYTES, label: MAX_PDF_LABEL },
      fields: ['voice', 'fmt', 'lexicons', 'retention_days'],
    });
    const body = validate(ConvertPdfFields, form.fields);
    const voice = resolveVoice(body.voice);
    const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
    return {
      bytes: form.file!.data,
      loc: ['body', 'file'],
      voice,
      fmt: body.fmt,
      caller,
      ...(body.lexicons ? { lexicons: body.lexicons } : {}),
      ttlDays: retentionDays(body.retention_days, caller, retentionLimits(deps.config)),
    };
  }
  if (!BY_REFERENCE.includes(type) && !type.endsWith('+json'))
    throw new HttpError(
      415,
      `Unsupported Content-Type '${type}'. Send the PDF as multipart/form-data in a field named 'file' (e.g. ` +
        'curl -F "file=@document.pdf"), or, after POST /convert/pdf/upload, JSON {"upload_id": "<id>"}.',
    );
  const body = validate(ConvertPdfUploadReq, req.body());
  const voice = resolveVoice(body.voice);
  const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
  const ttlDays = retentionDays(body.retention_days, caller, retentionLimits(deps.config));
  // With an Idempotency-Key, the retry of a request that died holding this upload id may continue its conversion.
  const bytes = await loadUploadedPdf(
    deps,
    body.upload_id,
    caller,
    MAX_PDF_BYTES,
    MAX_PDF_LABEL,
    idempotentId(req),
  );
  return {
    bytes,
    loc: ['body', 'upload_id'],
    voice,
    fmt: body.fmt,
    caller,
    ...(body.lexicons ? { lexicons: body.lexicons } : {}),
    ttlDays,
    uploadId: body.upload_id,
  };
}

export const makeHandler = (deps: NarrationDeps, options: ConvertPdfOptions = {}) =>
  apiHandler(
    async (req, context): Promise<ApiResult> => {
      const src = await fromRequest(req, deps);
      let pdf;
      try {
        pdf = await extractPdf(src.bytes, { maxChars: MAX_TEXT_CHARS, ...options.limits });
      } catch (err) {
        if (err instanceof PdfRejected) {
          logger.info('pdf rejected', { reason: err.type, bytes: src.bytes.length });
          throw invalid(src.loc, err.message, err.type);
        }
        throw err;
      }
      assertSpeakable(pdf.text, src.loc);
      logger.info('pdf extracted', {
        bytes: src.bytes.length,
        pages: pdf.pageCount,
        chars: pdf.chars,
        outlineEntries: pdf.outline.length,
        outlineSource: pdf.outlineSource,
        byUpload: src.uploadId !== undefined,
        ...pdf.removed,
      });
      // The lexicons named (or the account's default), as for /convert/text: 422 at body.lexicons.
      const how = await speechRequest(
        deps,
        src.caller,
        { text: pdf.text, ...(src.lexicons ? { lexicons: src.lexicons } : {}) },
        src.voice,
        { text: src.loc, lexicons: ['body', 'lexicons'] },
      );
      const extra = speechFields(how);
      const headings = pdf.headings.map((h) => ({ text: h.text, offset: h.offset }));
      if (isDryRun(req.query))
        return previewAnswer(
          deps,
          how,
          {
            text: pdf.text,
            voice: src.voice,
            fmt: src.fmt,
            ...(pdf.title !== undefined ? { title: pdf.title } : {}),
            headings,
          },
          extra,
        );
      const convert = (): Promise<ConversionOutcome> =>
        observeConversion(req.event.routeKey, src.fmt, () =>
          startConversion(deps, {
            ...requestFields(req, context, how),
            headings,
            text: pdf.text,
            voice: src.voice,
            fmt: src.fmt,
            caller: src.caller,
            ttlDays: src.ttlDays,
          }),
        );
      const out = src.uploadId
        ? await convertUploadOnce(deps, src.uploadId, src.caller, convert, idempotentId(req))
        : await convert();
      return json(out.statusCode, { ...out.body, ...extra }, out.headers);
    },
    {
      maxBodyBytes: route.maxBodyBytes,
      ...(route.tooLarge ? { tooLarge: route.tooLarge } : {}),
      ...idempotency(route, deps),
    },
  );

export const handler = makeHandler(awsDeps());
