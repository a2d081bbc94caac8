// POST /convert/pdf — a PDF upload (multipart/form-data: file ≤ 20 MB, voice?, fmt? (default mp3)) to audio.
// The text is extracted and cleaned for listening (running headers/footers and page numbers dropped, hyphenated
// line breaks joined, columns read in order) in a fenced worker thread, then narrated exactly like /convert/text:
// ≤ SYNC_MAX_CHARS → 200 with the Conversion result, longer → 202 queued. Free-tier limits apply as for text and
// are charged only once the PDF has yielded text to narrate. Every problem with the file is a 422 at
// loc ['body', 'file'] saying why and what to do. `?dry_run=true` previews (text, chapters from the PDF's
// bookmarks, estimated duration) without charging, like the other convert endpoints.
import { z } from 'zod';
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { observeConversion } from '../metrics';
import { invalid } from '../../shared/http/errors';
import { parseMultipart } from '../../shared/http/multipart';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/http/validation';
import { logger } from '../../shared/logger';
import { awsDeps, type NarrationDeps } from '../deps';
import { startConversion } from '../use-cases/conversion';
import { isDryRun, previewConversion } from '../core/preview';
import { PdfRejected, extractPdf, type PdfLimits } from '../pdf/index';
import { convertPdfRoute as route } from './convert-pdf.route';
import {
  MAX_TEXT_CHARS,
  assertSpeakable,
  fmtField,
  lexiconsField,
  resolveVoice,
  voiceField,
} from '../requests';
import { speechFields, speechRequest } from '../use-cases/speech-request';
import { spokenText } from '../core/speech';

const MiB = 1024 * 1024;

/** The contract's "at most 20 MB", read generously as MiB (what file managers show as "20 MB"). */
export const MAX_PDF_BYTES = 20 * MiB;

export const ConvertPdfFields = z.object({
  voice: voiceField,
  fmt: fmtField,
  /** Comma-separated lexicon names, first wins (else the account's default). Paid keys. */
  lexicons: lexiconsField,
});

export interface ConvertPdfOptions {
  /** Extraction limits (tests lower the time budget). */
  limits?: Partial<PdfLimits>;
}

export const makeHandler = (deps: NarrationDeps, options: ConvertPdfOptions = {}) =>
  apiHandler(
    async (req) => {
      const form = await parseMultipart(req.rawBody(), req.headers['content-type'], {
        file: { field: 'file', maxBytes: MAX_PDF_BYTES, label: '20 MB' },
        fields: ['voice', 'fmt', 'lexicons'],
      });
      const body = validate(ConvertPdfFields, form.fields);
      const voice = resolveVoice(body.voice);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      let pdf;
      try {
        pdf = await extractPdf(form.file!.data, { maxChars: MAX_TEXT_CHARS, ...options.limits });
      } catch (err) {
        if (err instanceof PdfRejected) {
          logger.info('pdf rejected', { reason: err.type, bytes: form.file!.data.length });
          throw invalid(['body', 'file'], err.message, err.type);
        }
        throw err;
      }
      assertSpeakable(pdf.text, ['body', 'file']);
      logger.info('pdf extracted', {
        bytes: form.file!.data.length,
        pages: pdf.pageCount,
        chars: pdf.chars,
        outlineEntries: pdf.outline.length,
        outlineSource: pdf.outlineSource,
        ...pdf.removed,
      });
      const how = await speechRequest(deps, caller, { text: pdf.text, lexicons: body.lexicons }, voice);
      if (isDryRun(req.query))
        return json(200, {
          ...previewConversion({
            text: pdf.text,
            voice,
            fmt: body.fmt,
            syncMaxChars: deps.config.SYNC_MAX_CHARS,
            ...(pdf.title !== undefined ? { title: pdf.title } : {}),
            headings: pdf.headings.map((h) => ({ text: h.text, offset: h.offset })),
            ...(how.speech ? { spoken: spokenText(how.pieces()) } : {}),
          }),
          ...speechFields(how),
        });
      const out = await observeConversion(req.event.routeKey, body.fmt, () =>
        startConversion(deps, {
          signal: req.signal,
          text: pdf.text,
          voice,
          fmt: body.fmt,
          caller,
          ...(how.speech ? { speech: how.speech } : {}),
        }),
      );
      return json(out.statusCode, { ...out.body, ...speechFields(how) }, out.headers);
    },
    { maxBodyBytes: route.maxBodyBytes },
  );

export const handler = makeHandler(awsDeps());
