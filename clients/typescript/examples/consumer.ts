// A sample consumer of the published package (as an integrator writes it). The tests type-check it with
// `tsc --noEmit` against the built package (test/e2e/clients-typescript.test.ts); it is also the README's example.
import { readFile, writeFile } from 'node:fs/promises';
import {
  DocumentsClient,
  InvalidRequestError,
  NarrationClient,
  verifySignature,
  type Conversion,
  type RenderedDocument,
} from 'voz-client';

const narration = new NarrationClient({
  apiKey: process.env.VOZ_API_KEY,
  baseUrl: process.env.VOZ_NARRATION_URL,
});
const documents = new DocumentsClient({
  apiKey: process.env.VOZ_API_KEY,
  baseUrl: process.env.VOZ_DOCUMENTS_URL,
});

export async function example(): Promise<void> {
  // Long texts answer 202: narrateText polls at the API's Retry-After until the audio exists.
  const done: Conversion = await narration.narrateText(
    { text: 'Hola, ¿qué tal? Esto es una prueba.', voice: 'es-MX-Mia', fmt: 'mp3' },
    { onProgress: (p) => console.error(`${Math.round(p.progress * 100)} %`) },
  );
  await writeFile('hola.mp3', await narration.download(done.audio_id));
  const timings = await narration.timings(done.audio_id);
  console.log(timings.sentences.length);

  // PDFs over ~4.5 MB go through POST /convert/pdf/upload → S3 → POST /convert/pdf {upload_id} by themselves.
  const pdf = await narration.narratePdf(await readFile('informe.pdf'), { voice: 'es-ES-Lucia' });
  console.log(pdf.audio_id, pdf.duration_s);

  const doc: RenderedDocument = await documents.render({
    template: 'ventas',
    format: 'xlsx',
    data: { title: 'Ventas', rows: [{ product: 'Café', units: 3, revenue: 150 }] },
  });
  await writeFile(doc.filename, doc.bytes);

  try {
    await narration.narrateText({ text: '' });
  } catch (err) {
    if (err instanceof InvalidRequestError) console.error(err.status, err.code, err.items[0]?.loc);
  }

  const ok: boolean = await verifySignature('whsec_…', 'Voz-Signature header', '{"raw":"body"}');
  console.log(ok);

  // @ts-expect-error -- the request types come from the OpenAPI documents: `txt` is not a field
  await narration.narrateText({ txt: 'hola' });
  // @ts-expect-error -- fmt is one of mp3, wav, ogg
  await narration.narrateText({ text: 'hola', fmt: 'flac' });
}
