// parseMultipart: the upload part of POST /convert/pdf — one file part, small text fields, every limit mapped to
// the contract's 422 items (or 415 for another media type).
import { InvalidInput } from '../../lambdas/shared/errors';
import { HttpError } from '../../lambdas/shared/http/errors';
import { parseMultipart, type MultipartSpec } from '../../lambdas/shared/http/multipart';

const spec: MultipartSpec = {
  file: { field: 'file', maxBytes: 1000, label: '1000 bytes' },
  fields: ['voice', 'fmt'],
  maxFieldBytes: 64,
  maxParts: 6,
};

/** Serialises a FormData the way an HTTP client does (boundary chosen by the runtime). */
async function encode(form: FormData): Promise<{ raw: Buffer; type: string }> {
  const req = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { raw: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

const pdfBlob = (n = 100) => new Blob([Buffer.alloc(n, 0x41)], { type: 'application/pdf' });

async function items(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (e instanceof InvalidInput) return e.items;
    throw e;
  }
  throw new Error('expected a 422');
}

test('reads the file and the known fields (UTF-8 names and values), ignores unknown fields', async () => {
  const form = new FormData();
  form.append('voice', 'es-ES-Lucía');
  form.append('fmt', 'ogg');
  form.append('otro', 'x');
  form.append('file', pdfBlob(321), 'informe año 2024.pdf');
  const { raw, type } = await encode(form);
  const out = await parseMultipart(raw, type, spec);
  expect(out.fields).toEqual({ voice: 'es-ES-Lucía', fmt: 'ogg' });
  expect(out.file!.data.length).toBe(321);
  expect(out.file!.filename).toBe('informe año 2024.pdf');
  expect(out.file!.mimeType).toBe('application/pdf');
});

test('another media type is 415 naming multipart/form-data', async () => {
  const err = await parseMultipart(Buffer.from('{}'), 'application/json', spec).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).statusCode).toBe(415);
  expect((err as HttpError).detail).toMatch(/multipart\/form-data.*'file'/);
});

test('no boundary: 422 multipart_invalid', async () => {
  expect(await items(parseMultipart(Buffer.from('x'), 'multipart/form-data', spec))).toEqual([
    expect.objectContaining({ loc: ['body'], type: 'multipart_invalid' }),
  ]);
});

test('a body cut short: 422 multipart_invalid', async () => {
  const form = new FormData();
  form.append('file', pdfBlob(500), 'a.pdf');
  const { raw, type } = await encode(form);
  expect(await items(parseMultipart(raw.subarray(0, 200), type, spec))).toEqual([
    expect.objectContaining({ loc: ['body'], type: 'multipart_invalid' }),
  ]);
});

test('missing file: Field required, with a hint when the file came under another name', async () => {
  const form = new FormData();
  form.append('voice', 'es-MX-Mia');
  let { raw, type } = await encode(form);
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    { loc: ['body', 'file'], msg: 'Field required', type: 'missing' },
  ]);
  const misnamed = new FormData();
  misnamed.append('pdf', pdfBlob(), 'a.pdf');
  ({ raw, type } = await encode(misnamed));
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({
      loc: ['body', 'file'],
      type: 'missing',
      msg: expect.stringMatching(/'pdf'.*'file'/),
    }),
  ]);
});

test('file sent as a text value, two files: precise 422s', async () => {
  const text = new FormData();
  text.append('file', 'documento.pdf');
  let { raw, type } = await encode(text);
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({
      loc: ['body', 'file'],
      type: 'value_error',
      msg: expect.stringMatching(/curl -F/),
    }),
  ]);
  const two = new FormData();
  two.append('file', pdfBlob(), 'a.pdf');
  two.append('file', pdfBlob(), 'b.pdf');
  ({ raw, type } = await encode(two));
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({ loc: ['body', 'file'], type: 'too_many_files' }),
  ]);
});

test('limits: file size (exactly at the limit passes), field size, number of parts', async () => {
  const atLimit = new FormData();
  atLimit.append('file', pdfBlob(1000), 'a.pdf');
  let { raw, type } = await encode(atLimit);
  expect((await parseMultipart(raw, type, spec)).file!.data.length).toBe(1000);

  const over = new FormData();
  over.append('file', pdfBlob(1001), 'a.pdf');
  ({ raw, type } = await encode(over));
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({
      loc: ['body', 'file'],
      type: 'file_too_large',
      msg: expect.stringContaining('1000 bytes'),
    }),
  ]);

  const longField = new FormData();
  longField.append('voice', 'x'.repeat(65));
  longField.append('file', pdfBlob(), 'a.pdf');
  ({ raw, type } = await encode(longField));
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({ loc: ['body', 'voice'], type: 'string_too_long' }),
  ]);

  const many = new FormData();
  for (let i = 0; i < 10; i++) many.append(`f${i}`, 'x');
  many.append('file', pdfBlob(), 'a.pdf');
  ({ raw, type } = await encode(many));
  expect(await items(parseMultipart(raw, type, spec))).toEqual([
    expect.objectContaining({ loc: ['body'], type: 'too_many_parts' }),
  ]);
});
