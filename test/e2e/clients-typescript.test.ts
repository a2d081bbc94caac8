// The TypeScript client (clients/typescript, voz-client) and its `voz` CLI against the real local runtime: every
// operation they wrap, over HTTP only. Narration: voices, text (200 and 202 → polling at Retry-After), URL, PDF
// (direct, and a 19 MB one through the presigned upload path, as #29 asks: far over the ~4.5 MB a request may carry, so
// the direct route refuses it, and under the 20 MiB ceiling, which is convert-pdf-upload.test.ts's), download (ffprobe), timings,
// lexicons, webhooks (a real signed delivery verified), typed errors with the API's X-Error-Code in English and
// Spanish, an idempotent retry after a lost answer, a publisher feed (served from loopback: narrated, its podcast,
// paused, polled, deleted with its audio). Documents: every format, an async job with its signed webhook, a merge
// (qpdf), a batch of CFDI through the zip upload and as an XML list (the result zip read). The generated types match the
// running APIs' OpenAPI documents; a sample consumer type-checks against the built package; the CLI (built bin)
// narrates a PDF to an MP3 (ffprobe) and prints facturas from CFDI XML (qpdf --check), with its exit codes.
// Case groups live beside it in test/e2e/clients-typescript/ (one runtime for all: standUp runs once).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate, type OpenApiDoc } from '../../clients/scripts/generate-types';
import { ROOT, rt, standUp } from './clients-typescript/stand';
import { documentsCases } from './clients-typescript/documents.cases';
import { narrationCases } from './clients-typescript/narration.cases';
import { packageCases } from './clients-typescript/package.cases';

jest.setTimeout(180_000);

standUp();

test('the committed types are what the generator makes of the running APIs’ OpenAPI documents', async () => {
  const get = async (base: string) => (await (await fetch(`${base}/api?format=json`)).json()) as OpenApiDoc;
  const generated = generate({
    narration: await get(rt.narrationUrl),
    documents: await get(rt.documentsUrl!),
  });
  for (const [rel, text] of Object.entries(generated))
    expect({ rel, text: readFileSync(join(ROOT, 'clients', rel), 'utf8') }).toEqual({ rel, text });
});

narrationCases();
documentsCases();
packageCases();
