// Article extraction (Readability over linkedom) on realistic Spanish pages, the length limit, and charset decoding.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  NoArticleError,
  TRUNCATION_NOTE,
  decodeHtml,
  extractArticle,
  fitForNarration,
  type Article,
} from '../../lambdas/narration/core/article';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'articles', name));
/** The blog fixture is stored as UTF-8; the site it stands for serves windows-1252 bytes. */
const latin1 = (name: string) => Buffer.from(fixture(name).toString('utf8'), 'latin1');
const chars = (s: string) => [...s].length;

describe('a Spanish news article (UTF-8)', () => {
  const article = extractArticle(decodeHtml(fixture('noticia.html'), 'utf-8'));

  test('title without the site name, read first', () => {
    expect(article.title).toBe('La sequía obliga a Cataluña a restringir el riego agrícola');
    expect(article.text.startsWith(`${article.title}.\n\n`)).toBe(true);
    expect(article.text.split(article.title)).toHaveLength(2); // read once, not again from the page's <h1>
  });

  test('the whole body, in order, one paragraph per block', () => {
    const paragraphs = article.text.split('\n\n');
    expect(paragraphs[1]).toMatch(/^El Gobierno de Cataluña aprobó este jueves el decreto/);
    expect(paragraphs.at(-1)).toMatch(/si la primavera vuelve a ser seca\.$/);
    expect(article.text).toContain('«Llevamos tres años mirando al cielo y ya no nos quedan ahorros»');
    expect(article.text.indexOf('Los expertos recuerdan')).toBeGreaterThan(
      article.text.indexOf('barcos cisterna'),
    );
    expect(article.chars).toBe(chars(article.text));
  });

  test('headings are paragraphs of their own (with a full stop for a pause) and listed with offsets', () => {
    expect(article.headings).toEqual([
      { level: 3, text: 'Los agricultores, los más afectados', offset: expect.any(Number) },
      { level: 3, text: 'Barcos cisterna y nuevas desaladoras', offset: expect.any(Number) },
    ]);
    const points = [...article.text];
    for (const h of article.headings) {
      expect(points.slice(h.offset, h.offset + chars(h.text) + 3).join('')).toBe(`${h.text}.\n\n`);
    }
  });

  test.each([
    ['cookie banner', 'Utilizamos cookies'],
    ['navigation', 'Internacional'],
    ['subscription pitch', 'Suscríbete'],
    ['ad labels', 'Publicidad'],
    ['share bar', 'Compartir'],
    ['"read also" box', 'Lee también'],
    ['related link', 'Las desaladoras, la gran apuesta'],
    ['figure caption', 'Foto: Agencia Efe'],
    ['tags', 'Agricultura\n'],
    ['newsletter form', 'newsletter'],
    ['comments', 'Que traigan el agua del Ebro'],
    ['most read', 'El Barça remonta'],
    ['footer', 'Todos los derechos reservados'],
    ['scripts', 'dataLayer'],
  ])('drops the %s', (_what, text) => {
    expect(article.text).not.toContain(text);
  });

  test('metadata is returned, not read', () => {
    expect(article.byline).toBe('Marta Vidal Puig');
    expect(article.text).not.toContain('Marta Vidal Puig');
    expect(article.lang).toBe('es');
  });

  test('figure captions can be included on request', () => {
    const html = `<html><head><title>Prueba</title></head><body><article><h1>Prueba</h1>
      <p>${'Un párrafo de texto corrido sobre el tema del artículo. '.repeat(6)}</p>
      <figure><img src="a.jpg"><figcaption>Vista del embalse de Sau.</figcaption></figure>
      <p>${'Otro párrafo con más texto para que haya un artículo claro. '.repeat(6)}</p></article></body></html>`;
    expect(extractArticle(html).text).not.toContain('Vista del embalse');
    expect(extractArticle(html, { includeCaptions: true }).text).toContain('Vista del embalse de Sau.');
  });
});

describe('a Mexican blog post served as windows-1252', () => {
  const bytes = latin1('blog-latin1.html');
  test('the <meta http-equiv> charset is honoured when the header names none', () => {
    const html = decodeHtml(bytes);
    expect(html).toContain('Cómo preparar tu declaración anual');
    expect(html).not.toContain('\uFFFD');
  });

  const article = extractArticle(decodeHtml(bytes));
  test('title, h2 sections, list items as sentences, quote kept', () => {
    expect(article.title).toBe('Cómo preparar tu declaración anual ante el SAT sin morir en el intento');
    expect(article.headings.map((h) => [h.level, h.text])).toEqual([
      [2, 'Qué necesitas antes de empezar'],
      [2, 'Revisa la información prellenada'],
      [2, 'Saldo a favor o saldo a cargo'],
    ]);
    expect(article.text).toContain('\n\nTu RFC y tu contraseña del SAT, o bien tu e.firma vigente.\n\n');
    expect(article.text).toContain('La declaración prellenada es una propuesta, no una obligación');
    expect(article.text).toMatch(/para un crédito\.$/);
  });
  test.each([
    ['post metadata', 'Publicado por'],
    ['sidebar', 'Entradas recientes'],
    ['author box', 'contadora pública'],
    ['top bar', 'Iniciar sesión'],
    ['share bar', 'WhatsApp'],
    ['styles', 'font-family'],
  ])('drops the %s', (_what, text) => {
    expect(article.text).not.toContain(text);
  });
});

describe('pages without an article', () => {
  test('a home page of headlines (links) → no_article', () => {
    expect(() => extractArticle(decodeHtml(fixture('portada.html')))).toThrow(NoArticleError);
    try {
      extractArticle(decodeHtml(fixture('portada.html')));
    } catch (e) {
      expect((e as NoArticleError).reason).toBe('no_article');
      expect((e as Error).message).toMatch(/address of the article itself/);
    }
  });
  test('a JavaScript app shell → script_only, pointing to /convert/text', () => {
    try {
      extractArticle(decodeHtml(fixture('app-shell.html')));
      throw new Error('expected NoArticleError');
    } catch (e) {
      expect((e as NoArticleError).reason).toBe('script_only');
      expect((e as Error).message).toMatch(/\/convert\/text/);
    }
  });
  test.each([
    ['empty', ''],
    [
      'login form',
      '<html><body><form><label>Correo</label><input name=u><button>Entrar</button></form></body></html>',
    ],
    ['one short line', '<html><body><p>Página no encontrada.</p></body></html>'],
    [
      'a list of links',
      `<html><body><ul>${'<li><a href="/x">Un titular de portada bastante largo para contar</a></li>'.repeat(30)}</ul></body></html>`,
    ],
  ])('%s → NoArticleError', (_what, html) => {
    expect(() => extractArticle(html)).toThrow(NoArticleError);
  });
});

describe('titles and limits', () => {
  const body = `<p>${'Texto del artículo con suficiente longitud para ser leído en voz alta. '.repeat(8)}</p>`;
  test.each([
    ['Crónica de una ciudad | Revista Semanal', '<h1>Crónica de una ciudad</h1>', 'Crónica de una ciudad'],
    ['Revista Semanal - Crónica de una ciudad', '<h1>Crónica de una ciudad</h1>', 'Crónica de una ciudad'],
    ['Un título sin sitio', '<h1>Otra cosa</h1>', 'Un título sin sitio'],
  ])('<title>%s</title> with %s → %s', (title, h1, expected) => {
    const html = `<html><head><title>${title}</title></head><body><article>${h1}${body}${body}</article></body></html>`;
    expect(extractArticle(html).title).toBe(expected);
  });
  test('og:title also names the article', () => {
    const html = `<html><head><title>Mi nota | Diario</title><meta property="og:title" content="Mi nota"></head><body><article>${body}${body}</article></body></html>`;
    expect(extractArticle(html).title).toBe('Mi nota');
  });
  test('a page of more than 40,000 elements → too_complex, not a hang', () => {
    const html = `<html><body><article>${body}${'<span>x</span>'.repeat(40_001)}</article></body></html>`;
    try {
      extractArticle(html);
      throw new Error('expected NoArticleError');
    } catch (e) {
      expect((e as NoArticleError).reason).toBe('too_complex');
    }
  });
});

describe('fitForNarration: the 100,000-character limit', () => {
  const para = (i: number) =>
    `Párrafo ${i}. La narración de artículos largos tiene que detenerse en algún punto, y cuando lo hace, lo dice.`;
  const longArticle = (): Article => {
    const paragraphs = ['Un artículo muy largo.'];
    const headings = [];
    let offset = chars(paragraphs[0]!) + 2;
    for (let i = 0; i < 1500; i++) {
      if (i % 100 === 0) {
        const h = `Capítulo ${i / 100 + 1}.`;
        headings.push({ level: 2, text: h.slice(0, -1), offset });
        paragraphs.push(h);
        offset += chars(h) + 2;
      }
      paragraphs.push(para(i));
      offset += chars(para(i)) + 2;
    }
    const text = paragraphs.join('\n\n');
    return { title: 'Un artículo muy largo', text, chars: chars(text), headings };
  };

  test('short articles pass untouched', () => {
    const a: Article = { title: 't', text: 'Hola.\n\nAdiós.', chars: 13, headings: [] };
    expect(fitForNarration(a, 100_000)).toEqual({
      text: a.text,
      chars: 13,
      truncated: false,
      articleChars: 13,
      headings: [],
    });
  });

  test('longer ones are cut at a paragraph boundary and say so at the end, within the limit', () => {
    const a = longArticle();
    expect(a.chars).toBeGreaterThan(150_000);
    const out = fitForNarration(a, 100_000);
    expect(out.truncated).toBe(true);
    expect(out.articleChars).toBe(a.chars);
    expect(out.chars).toBe(chars(out.text));
    expect(out.chars).toBeLessThanOrEqual(100_000);
    expect(out.chars).toBeGreaterThan(99_000); // nothing thrown away needlessly
    expect(out.text.endsWith(`lo dice.\n\n${TRUNCATION_NOTE}`)).toBe(true);
    expect(a.text.startsWith(out.text.slice(0, -TRUNCATION_NOTE.length - 2))).toBe(true);
    expect(out.headings.length).toBeGreaterThan(5);
    expect(out.headings.length).toBeLessThan(a.headings.length);
    for (const h of out.headings) expect(h.offset).toBeLessThan(out.chars);
  });

  test('a single huge paragraph is cut at a sentence end', () => {
    const text = 'Una frase corta que se repite. '.repeat(5000).trim();
    const out = fitForNarration({ title: '', text, chars: chars(text), headings: [] }, 1000);
    expect(out.chars).toBeLessThanOrEqual(1000);
    expect(out.text).toMatch(/se repite\.\n\nAquí termina esta narración/);
  });
});

describe('decodeHtml', () => {
  test('header charset wins; then meta; then UTF-8 if valid; else windows-1252', () => {
    const latin1 = Buffer.from('<p>Año, señal, acción</p>', 'latin1');
    expect(decodeHtml(latin1, 'iso-8859-1')).toBe('<p>Año, señal, acción</p>');
    expect(decodeHtml(latin1)).toBe('<p>Año, señal, acción</p>'); // invalid UTF-8 → windows-1252
    const utf8 = Buffer.from('<meta charset="utf-8"><p>Año</p>', 'utf8');
    expect(decodeHtml(utf8)).toContain('Año');
    expect(
      decodeHtml(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>ñ</p>')]), 'latin1'),
    ).toBe('<p>ñ</p>'); // BOM beats a wrong header
    expect(decodeHtml(Buffer.from('<p>ñ</p>'), 'no-such-charset')).toBe('<p>ñ</p>');
  });
});
