// PDF extraction end to end (bytes → pdf.js in the worker thread → layout → cleaning) on generated real-world-like
// documents, compared word by word with their known text and with pdftotext (poppler), an independent reader;
// and the broken corpus: every file gets a precise verdict, none crashes, hangs or leaks into the next request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  extractPdf,
  PdfRejected,
  stopPdfWorkers,
  type PdfExtraction,
} from '../../lambdas/narration/pdf/index';
import { tempDir } from '../helpers/env';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';
import { similarity, words } from '../helpers/text-similarity';
import { bombs, makeFixtures, type BrokenFixture, type CleanFixture } from '../fixtures/pdf/make-fixtures';

jest.setTimeout(60_000);

const dir = tempDir('pdf-fx-');
let clean: CleanFixture[] = [];
let broken: BrokenFixture[] = [];
const results = new Map<string, PdfExtraction>();
const report: string[] = [];

beforeAll(async () => {
  requirePdftotext();
  ({ clean, broken } = await makeFixtures());
  for (const f of clean) {
    writeFileSync(join(dir.path, `${f.name}.pdf`), f.bytes);
    results.set(f.name, await extractPdf(f.bytes));
  }
});

afterAll(async () => {
  // Printed for the record (asserted below): our extraction vs the known text and vs pdftotext.
  if (report.length)
    console.log(`PDF extraction similarity (word-level, 1 = identical)\n${report.join('\n')}`);
  await stopPdfWorkers();
  dir.cleanup();
});

/** What pdftotext reads in the body area (headers/footers cropped away), for a like-for-like comparison. */
function baseline(f: CleanFixture): string {
  return pdftotext(join(dir.path, `${f.name}.pdf`), {
    y0: f.bodyBand[0],
    y1: f.bodyBand[1],
    width: f.size[0],
  });
}

const names = ['informe-dos-columnas', 'libro-capitulos', 'boletin-tres-columnas', 'carta'];

describe.each(names)('%s', (name) => {
  const fx = () => clean.find((f) => f.name === name)!;
  const out = () => results.get(name)!;

  test('the narrated words are exactly the document text, in reading order', () => {
    expect(words(out().text)).toEqual(words(fx().expected));
    // Paragraphs survive (blank line between them), headings included.
    expect(out().text.split('\n\n')).toHaveLength(fx().expected.split('\n\n').length);
  });

  test('close to pdftotext reading only the body of each page', () => {
    const ours = similarity(out().text, baseline(fx()));
    const full = similarity(out().text, pdftotext(join(dir.path, `${name}.pdf`)));
    report.push(
      `${name.padEnd(24)} vs known text ${similarity(out().text, fx().expected).toFixed(3)}  ` +
        `vs pdftotext body ${ours.toFixed(3)}  vs pdftotext whole page ${full.toFixed(3)}`,
    );
    // pdftotext is a reference, not the truth: on these layouts it misorders some column blocks (the known-text
    // comparison above is exact), so the bar is "the same document", not "identical".
    expect(ours).toBeGreaterThanOrEqual(0.8);
  });

  test('running headers, footers and page numbers are not narrated; hyphenated words are whole', () => {
    const text = out().text;
    // A running header may repeat a heading (chapter title): it must appear only where the document prints it
    // as a heading.
    const count = (hay: string, needle: string) => hay.split(needle).length - 1;
    for (const line of new Set(fx().furniture.filter((l) => /\p{L}/u.test(l))))
      expect(count(text, line)).toBe(count(fx().expected, line));
    expect(text).not.toMatch(/Página \d+ de \d+/);
    for (const w of fx().hyphenated) expect(text).toContain(w);
    expect(text).not.toMatch(/\p{L}- \p{Ll}/u);
    if (fx().hyphenated.length)
      expect(out().removed.hyphenJoins).toBeGreaterThanOrEqual(fx().hyphenated.length);
  });

  test('page count and outline (bookmarks with their pages) are returned', () => {
    expect(out().pageCount).toBe(fx().pages);
    expect(out().outline).toEqual(fx().outline);
    expect(out().outlineSource).toBe(fx().outline.length ? 'bookmarks' : 'none');
    expect(out().chars).toBe([...out().text].length);
    // Every bookmark printed in the text is located in it, for chapter previews.
    for (const h of out().headings) expect([...out().text].slice(h.offset).join('')).toMatch(/^\S/);
  });
});

test('the fixtures exercise what they claim: accents, columns, furniture, hyphenation, outline', () => {
  const all = clean.map((f) => f.expected).join(' ');
  for (const ch of ['ñ', 'á', 'é', 'í', 'ó', 'ú', 'ü', '¿', '¡', '«']) expect(all).toContain(ch);
  const informe = clean.find((f) => f.name === 'informe-dos-columnas')!;
  expect(informe.pages).toBeGreaterThanOrEqual(3);
  expect(informe.hyphenated.length).toBeGreaterThan(20);
  expect(clean.find((f) => f.name === 'libro-capitulos')!.furniture.some((l) => /^\d+$/.test(l))).toBe(true);
});

describe('broken corpus: a precise 4xx verdict for each, never a crash or a hang', () => {
  const cases = () => broken.map((b) => [b.name, b] as const);
  test('the corpus is complete', () =>
    expect(broken.map((b) => b.name).sort()).toEqual(
      [
        'anidado-profundo',
        'arbol-circular',
        'bomba-deflate',
        'cifrado',
        'cifrado-solo-permisos',
        'cinco-mil-paginas',
        'escaneado',
        'imagen-png',
        'pagina-html',
        'ruido-con-cabecera',
        'truncado',
        'vacio',
        'xref-invalida',
        'xref-invalida-sin-objetos',
      ].sort(),
    ));

  test.each([
    'vacio',
    'truncado',
    'ruido-con-cabecera',
    'imagen-png',
    'pagina-html',
    'cifrado',
    'cifrado-solo-permisos',
    'escaneado',
    'anidado-profundo',
    'cinco-mil-paginas',
    'arbol-circular',
    'xref-invalida',
    'xref-invalida-sin-objetos',
    'bomba-deflate',
  ])('%s', async (name) => {
    const f = cases().find(([n]) => n === name)![1];
    // The verdict is the content's, whatever the machine's speed: the time budget (10 s by default) is a defence of
    // its own, tested under "fences" below; on a starved machine (load 25) the 64 MiB deflate bomb took longer than
    // 10 s and answered pdf_too_complex, the time budget's verdict, instead of its content's.
    const outcome = await extractPdf(f.bytes, { timeoutMs: 45_000 }).then(
      (r) => ({ type: 'ok', text: r.text, message: '' }),
      (e: unknown) => {
        if (!(e instanceof PdfRejected)) throw e;
        return { type: e.type as string, text: '', message: e.message };
      },
    );
    expect(outcome.type).toBe(f.expectType);
    if (f.expectType === 'ok') expect(outcome.text.length).toBeGreaterThan(30);
    // Says why and what to do about it.
    else expect(outcome.message).toMatch(/upload|split|OCR|export|save|print/i);
  });
});

describe('fences: a crafted file is stopped at the budget and the next request is served normally', () => {
  let bomb: ReturnType<typeof bombs>;
  beforeAll(() => {
    bomb = bombs();
  });

  test('4 million operators on one page (no point to stop between pages) are stopped at the time budget', async () => {
    await expect(extractPdf(bomb.operators, { timeoutMs: 1000 })).rejects.toMatchObject({
      type: 'pdf_too_complex',
    });
    const next = await extractPdf(clean[3]!.bytes);
    expect(words(next.text)).toEqual(words(clean[3]!.expected));
  });

  test('a stream inflating beyond the memory budget is stopped by the memory fence', async () => {
    await expect(extractPdf(bomb.spaces, { maxMemoryMb: 128, timeoutMs: 30_000 })).rejects.toMatchObject({
      type: 'pdf_too_complex',
    });
    expect((await extractPdf(clean[3]!.bytes)).chars).toBe(results.get('carta')!.chars);
  });
});
