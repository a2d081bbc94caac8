// The PDF cleaning heuristics on hand-built pages: what is page furniture (headers, footers, page numbers) and what
// is content, reading order across columns, paragraphs and hyphenated line ends, and the byte checks.
import {
  buildParagraphs,
  cleanPages,
  endedEarly,
  findFurniture,
  finishParagraph,
  isPageNumber,
  joinLines,
} from '../../lambdas/narration/pdf/clean';
import { PdfRejected } from '../../lambdas/narration/pdf/errors';
import { locateHeadings } from '../../lambdas/narration/pdf/extract';
import { findGutters, joinRow, layoutPage, type Line } from '../../lambdas/narration/pdf/layout';
import { checkPdfBytes, describeContent } from '../../lambdas/narration/pdf/sniff';
import type { RawPage, TextRun } from '../../lambdas/narration/pdf/types';

const W = 612;
const H = 792;

function line(text: string, page: number, y: number, over: Partial<Line> = {}): Line {
  const size = over.size ?? 11;
  const x0 = over.x0 ?? 72;
  return {
    text,
    x0,
    x1: over.x1 ?? Math.min(540, x0 + text.length * size * 0.5),
    y,
    size,
    column: 0,
    page,
    pageWidth: W,
    pageHeight: H,
    colLeft: 72,
    colRight: 540,
    ...over,
  };
}

/** A full-width body line (ends at the column edge, as wrapped justified text does). */
const full = (text: string, page: number, y: number, over: Partial<Line> = {}) =>
  line(text, page, y, { x1: 540, ...over });

describe('isPageNumber', () => {
  test.each([
    '12',
    '- 12 -',
    '— 7 —',
    '(3)',
    '[4]',
    'Página 3',
    'Pág. 3 de 10',
    'página 3 de 10',
    'Page 4 of 9',
    '3 / 10',
    '3 de 10',
    'xiv',
  ])('%s is a page number', (t) => expect(isPageNumber(t)).toBe(true));
  test.each(['2024 fue un buen año', 'Capítulo 3', 'IV Congreso', 'Informe 2024', '12345', 'Tabla 3'])(
    '%s is not',
    (t) => expect(isPageNumber(t)).toBe(false),
  );
});

describe('joinLines: hyphenated line ends', () => {
  test('a word split at the line end is rejoined', () => {
    expect(joinLines('acceso a la infor-', 'mación confiable')).toEqual({
      text: 'acceso a la información confiable',
      hyphenJoin: true,
    });
    expect(joinLines('la pe-', 'ña').text).toBe('la peña');
    expect(joinLines('un pin-', 'güino').text).toBe('un pingüino');
  });
  test('soft hyphens always join', () => {
    expect(joinLines('comuni\u00AD', 'cación').text).toBe('comunicación');
  });
  test('a hyphen before a capital or a digit is a real hyphen', () => {
    expect(joinLines('el eje franco-', 'Alemán').text).toBe('el eje franco-Alemán');
    expect(joinLines('entre 1990-', '2000').text).toBe('entre 1990-2000');
  });
  test('other lines join with a space; a dash alone is not a hyphenation', () => {
    expect(joinLines('fin de la frase.', 'Otra').text).toBe('fin de la frase. Otra');
    expect(joinLines('dijo —', 'y calló').text).toBe('dijo — y calló');
  });
});

const BODY = 'con bastante texto de cuerpo para que este tamaño sea el dominante';
const ORDINAL = ['primera', 'segunda', 'tercera', 'cuarta', 'quinta', 'sexta'];

describe('findFurniture: running headers, footers and page numbers', () => {
  const pages = (n: number, extra: (p: number) => Line[] = () => []): Line[][] =>
    Array.from({ length: n }, (_, p) => [
      line('Revista de Letras · Número 12', p, 40, { size: 8 }),
      full(
        `Texto del cuerpo de la ${ORDINAL[p]} página, que sigue y sigue hasta el borde de la columna`,
        p,
        100,
      ),
      full('Una línea que se repite en el cuerpo de cada página, igual en todas ellas', p, 300 + p * 20),
      ...extra(p),
      line(`Página ${p + 1} de ${n}`, p, 760, { size: 8, x0: 280 }),
    ]);

  const kept = (ps: Line[][], opts?: Parameters<typeof findFurniture>[1]) => {
    const f = findFurniture(ps, opts);
    return ps.flatMap((ls, p) => ls.filter((_, i) => !f.drop.has(`${p}:${i}`)).map((l) => l.text));
  };

  test('repeated header and "Página N de M" footer go; body lines stay', () => {
    const ps = pages(5);
    const f = findFurniture(ps);
    expect(f.furnitureLines).toBe(5);
    expect(f.pageNumbers).toBe(5);
    const left = kept(ps);
    expect(left).toHaveLength(10);
    expect(left.some((t) => t.includes('Revista') || t.startsWith('Página'))).toBe(false);
  });

  test('the same text at different heights in the body is content, not furniture', () => {
    const left = kept(pages(5));
    expect(left.filter((t) => t.startsWith('Una línea que se repite'))).toHaveLength(5);
  });

  test('numbered chapter headings at the top are kept: their numbers do not follow the page number', () => {
    const ps = pages(6, (p) => (p % 2 === 0 ? [line(`Capítulo ${p / 2 + 1}`, p, 80, { size: 11 })] : []));
    const left = kept(ps);
    expect(left.filter((t) => t.startsWith('Capítulo'))).toEqual(['Capítulo 1', 'Capítulo 2', 'Capítulo 3']);
  });

  test('a header whose number follows the page ("Informe 2024 — 7") goes on every page', () => {
    const ps = Array.from({ length: 4 }, (_, p) => [
      line(`Informe 2024 — ${p + 7}`, p, 36, { size: 8 }),
      full(`Cuerpo ${p}`, p, 200),
    ]);
    expect(kept(ps)).toEqual(['Cuerpo 0', 'Cuerpo 1', 'Cuerpo 2', 'Cuerpo 3']);
  });

  test('a bare number is a page number only at the top or bottom edge', () => {
    const ps = [[full('Arriba', 0, 100), line('7', 0, 400), full('Abajo', 0, 500), line('7', 0, 770)]];
    expect(kept(ps)).toEqual(['Arriba', '7', 'Abajo']);
  });

  test('one page: a header cannot be told from content (kept), a page number can (dropped)', () => {
    const ps = [[line('Informe anual', 0, 40, { size: 8 }), full('Cuerpo', 0, 200), line('1', 0, 770)]];
    expect(kept(ps)).toEqual(['Informe anual', 'Cuerpo']);
  });

  test('a small running header repeating a bookmark goes; the chapter heading in large type stays', () => {
    const outline = [{ title: 'Capítulo 2. La crecida', level: 0, page: 2 }];
    const ps = [
      [line('Capítulo 2. La crecida', 0, 90, { size: 16 }), full(`Texto uno ${BODY}`, 0, 130)],
      [line('Capítulo 2. La crecida', 1, 36, { size: 8 }), full(`Texto dos ${BODY}`, 1, 130)],
    ];
    expect(kept(ps, { outline })).toEqual([
      'Capítulo 2. La crecida',
      `Texto uno ${BODY}`,
      `Texto dos ${BODY}`,
    ]);
  });
});

describe('buildParagraphs', () => {
  test('paragraph spacing, indentation and short final lines end paragraphs', () => {
    const lines = [
      full('Primera línea del primer párrafo que llega al', 0, 100),
      line('final.', 0, 115),
      full('Segundo párrafo separado por un espacio mayor que', 0, 140),
      full('el interlineado normal de la columna de texto y', 0, 155),
      line('termina aquí.', 0, 170),
      full('Tercer párrafo con sangría y sin espacio extra y', 0, 185, { x0: 90 }),
      line('que también termina.', 0, 200),
    ];
    expect(buildParagraphs(lines).paragraphs).toEqual([
      'Primera línea del primer párrafo que llega al final.',
      'Segundo párrafo separado por un espacio mayor que el interlineado normal de la columna de texto y termina aquí.',
      'Tercer párrafo con sangría y sin espacio extra y que también termina.',
    ]);
  });

  test('a sentence continues across a column and a page break, hyphenated words included', () => {
    const lines = [
      full('La biblioteca abrió sus puertas en la antigua', 0, 700),
      full('estación y los vecinos trajeron libros, infor-', 0, 715),
      full('mación y muebles para llenar los estantes', 0, 100, {
        column: 1,
        x0: 320,
        colLeft: 320,
        colRight: 540,
      }),
      // A figure sits between these two lines of the column: the sentence still goes on.
      full('mientras el río seguía creciendo sin', 0, 700, {
        column: 1,
        x0: 320,
        colLeft: 320,
        colRight: 540,
      }),
      line('parar.', 1, 100),
    ];
    const out = buildParagraphs(lines);
    expect(out.paragraphs).toEqual([
      'La biblioteca abrió sus puertas en la antigua estación y los vecinos trajeron libros, información y muebles ' +
        'para llenar los estantes mientras el río seguía creciendo sin parar.',
    ]);
    expect(out.hyphenJoins).toBe(1);
  });

  test('a heading is its own paragraph and gets a full stop so the voice pauses', () => {
    const lines = [
      full('Final del capítulo anterior que ocupa la línea', 0, 100),
      line('entera.', 0, 115),
      line('2. Resultados', 0, 145, { size: 13 }),
      full('El texto del apartado empieza justo debajo del', 0, 170),
      line('título.', 0, 185),
    ];
    expect(buildParagraphs(lines).paragraphs).toEqual([
      'Final del capítulo anterior que ocupa la línea entera.',
      '2. Resultados.',
      'El texto del apartado empieza justo debajo del título.',
    ]);
  });

  test('endedEarly: a ragged line that ends before the edge only if the next word would have fitted', () => {
    const next = line('palabra siguiente en la otra línea', 0, 115, { x1: 72 + 34 * 5.5 });
    expect(endedEarly(line('corta.', 0, 100, { x1: 110 }), next)).toBe(true);
    expect(endedEarly(line('casi llena hasta el borde', 0, 100, { x1: 520 }), next)).toBe(false);
  });

  test('finishParagraph removes invisible characters and closes headings', () => {
    expect(finishParagraph('Intro\u200Bducción  general')).toBe('Introducción general.');
    expect(finishParagraph('¿Qué pasó?')).toBe('¿Qué pasó?');
    expect(finishParagraph('«Cita»')).toBe('«Cita»');
  });
});

// ---- layout -------------------------------------------------------------------------------------------------

function run(text: string, x: number, y: number, size = 10, width?: number): TextRun {
  return { text, x, y, size, width: width ?? text.length * size * 0.5 };
}

/** A page with a spanning title, `cols` justified columns of `rows` lines each, and a centred footer. */
function columnsPage(cols: number, rows: number): { page: RawPage; order: string[] } {
  const left = 50;
  const gap = 20;
  const colW = (W - 2 * left - gap * (cols - 1)) / cols;
  const runs: TextRun[] = [run('Título del boletín que cruza todas las columnas', 150, 60, 16, 312)];
  const order = ['Título del boletín que cruza todas las columnas'];
  for (let c = 0; c < cols; c++)
    for (let r = 0; r < rows; r++) {
      const text = `col${c} fila${r} texto`;
      // Justified: the line spans the column, in two runs split at a word gap that varies from line to line.
      const x = left + c * (colW + gap);
      const split = colW * (0.3 + 0.07 * (r % 6));
      runs.push(run(`col${c} fila${r}`, x, 100 + r * 14, 10, split - 3));
      runs.push(run('texto', x + split, 100 + r * 14, 10, colW - split));
      order.push(text);
    }
  runs.push(run('Página 1', 285, 760, 8, 40));
  order.push('Página 1');
  return { page: { width: W, height: H, runs }, order };
}

describe('layout: columns and reading order', () => {
  test.each([2, 3])('%i columns are read one after the other, between the title and the footer', (cols) => {
    const { page, order } = columnsPage(cols, 12);
    expect(findGutters(page.runs, W)).toHaveLength(cols - 1);
    const lines = layoutPage(page, 0);
    expect(lines.map((l) => l.text)).toEqual(order);
    expect(lines[0]!.column).toBe(-1);
    expect(lines[1]!.colRight).toBeLessThan(W / cols + 10);
  });

  test('a single column whose word spaces line up (same first word on each line) has no gutter', () => {
    const runs: TextRun[] = [];
    for (let r = 0; r < 12; r++) {
      runs.push(run('Palabras', 72, 100 + r * 14, 10, 200));
      runs.push(run('alineadas', 275 + (r % 3), 100 + r * 14, 10, 250));
    }
    expect(findGutters(runs, W)).toEqual([]);
    expect(layoutPage({ width: W, height: H, runs }, 0)[0]!.text).toBe('Palabras alineadas');
  });

  test('a two-column table of short labels is read row by row, not as columns', () => {
    const runs: TextRun[] = [];
    const labels = ['Nombre', 'Ciudad', 'Teléfono', 'Correo', 'Plan', 'Alta', 'Estado', 'Notas'];
    labels.forEach((l, r) => {
      runs.push(run(l, 72, 100 + r * 14, 10));
      runs.push(run(`valor ${r} del campo`, 320, 100 + r * 14, 10, 200));
    });
    const lines = layoutPage({ width: W, height: H, runs }, 0);
    expect(lines.map((l) => l.text)).toEqual(labels.map((l, r) => `${l} valor ${r} del campo`));
  });

  test('joinRow puts spaces where the PDF only leaves gaps and drops faux-bold duplicates', () => {
    expect(joinRow([run('mundo', 24, 10, 10, 25), run('Hola', 0, 10, 10, 20)])).toBe('Hola mundo');
    expect(joinRow([run('infor', 0, 10, 10, 25), run('mación', 25.2, 10, 10, 30)])).toBe('información');
    expect(joinRow([run('Título', 0, 10, 10, 30), run('Título', 0.3, 10, 10, 30)])).toBe('Título');
  });

  test('cleanPages end to end: columns, footer, hyphenation', () => {
    const runs: TextRun[] = [];
    const leftText = [
      'La cooperativa recogió este año una cose-',
      'cha de maíz que casi dobla la del año',
      'anterior gracias al trabajo de todas las',
    ];
    const rightText = [
      'familias que participaron en la siembra',
      'y en la limpieza de las parcelas durante',
      'los meses más calurosos del verano.',
    ];
    for (let page = 0; page < 1; page++) {
      leftText.forEach((t, r) => runs.push(run(t, 50, 100 + r * 14, 10, 240)));
      rightText.forEach((t, r) => runs.push(run(t, 322, 100 + r * 14, 10, 240)));
      runs.push(run('3', 300, 770, 9, 5));
    }
    const out = cleanPages([layoutPage({ width: W, height: H, runs }, 0)]);
    expect(out.text).toBe(
      'La cooperativa recogió este año una cosecha de maíz que casi dobla la del año anterior gracias al trabajo ' +
        'de todas las familias que participaron en la siembra y en la limpieza de las parcelas durante los meses ' +
        'más calurosos del verano.',
    );
    expect(out.pageNumbers).toBe(1);
    expect(out.hyphenJoins).toBe(1);
  });
});

describe('locateHeadings', () => {
  test('finds outline entries as paragraphs, in order, with code-point offsets', () => {
    const paragraphs = ['Introducción.', 'Año de cambios, ¿verdad?', 'Capítulo 1. La llegada.', 'Texto.'];
    const found = locateHeadings(paragraphs, [
      { title: 'Introducción', level: 0, page: 1 },
      { title: 'Sólo en el marcador', level: 0, page: 1 },
      { title: 'Capítulo 1. La llegada', level: 1, page: 2 },
    ]);
    expect(found).toEqual([
      { level: 0, text: 'Introducción', offset: 0 },
      {
        level: 1,
        text: 'Capítulo 1. La llegada',
        offset: 'Introducción.'.length + 2 + 'Año de cambios, ¿verdad?'.length + 2,
      },
    ]);
  });
});

describe('checkPdfBytes', () => {
  const reason = (b: Buffer) => {
    try {
      checkPdfBytes(b);
      return 'ok';
    } catch (e) {
      return (e as PdfRejected).type;
    }
  };
  test('empty, not a PDF, cut short, fine', () => {
    expect(reason(Buffer.alloc(0))).toBe('pdf_empty');
    expect(reason(Buffer.from('hola, esto es texto'))).toBe('not_pdf');
    expect(reason(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'))).toBe('pdf_truncated');
    expect(reason(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'))).toBe('ok');
    // Junk before the header (some mail gateways add it) is tolerated within 1 KiB, as readers do.
    expect(reason(Buffer.concat([Buffer.alloc(500, 0x20), Buffer.from('%PDF-1.4\n%%EOF')]))).toBe('ok');
  });
  test('says what the file looks like instead', () => {
    expect(describeContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'a PNG image',
    );
    expect(describeContent(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('a JPEG image');
    expect(describeContent(Buffer.from('PK\x03\x04word/document.xml', 'latin1'))).toMatch(/DOCX/);
    expect(describeContent(Buffer.from('  <!DOCTYPE html><html>'))).toBe('an HTML page');
    expect(describeContent(Buffer.from('Texto plano en español, sin más.'))).toBe('plain text');
    try {
      checkPdfBytes(Buffer.from('<html><body>hola</body></html>'));
    } catch (e) {
      expect((e as Error).message).toBe(
        'The file is an HTML page, not a PDF. Export or save it as PDF and upload that, or send its text to /convert/text.',
      );
    }
    expect.assertions(6);
  });
});
