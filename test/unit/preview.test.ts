import { detectHeadings, isDryRun, previewConversion } from '../../lambdas/narration/core/preview';
import { findVoice } from '../../lambdas/narration/core/voices';

const para = 'Este es un párrafo normal que termina con un punto y sigue un buen rato más. '
  .repeat(10)
  .trim();

describe('detectHeadings', () => {
  test('finds chapter words and title-like short paragraphs, with character offsets', () => {
    const text = `Capítulo 1\n\n${para}\n\nLa llegada del invierno\n\n${para}\n\nNo es un título, termina con punto.\n\n${para}`;
    const found = detectHeadings(text);
    expect(found.map((h) => h.text)).toEqual(['Capítulo 1', 'La llegada del invierno']);
    for (const h of found)
      expect([...text].slice(h.offset, h.offset + [...h.text].length).join('')).toBe(h.text);
  });
  test('short texts have no detected chapters unless a chapter word says so', () => {
    expect(detectHeadings('Hola mundo\n\nAdiós')).toEqual([]);
    expect(detectHeadings('Prólogo\n\nHabía una vez.')).toEqual([{ text: 'Prólogo', offset: 0 }]);
  });
});

describe('previewConversion', () => {
  const voice = findVoice('es-MX-Mia')!;
  test('reports the spoken text, counts the caller text, estimates duration and delivery', () => {
    const p = previewConversion({
      text: 'Pagué $1,234.56 MXN el 03/04/2024.',
      voice,
      fmt: 'mp3',
      syncMaxChars: 3000,
    });
    expect(p.chars).toBe(34);
    expect(p.spoken_text).toContain('mil doscientos treinta y cuatro pesos');
    expect(p.spoken_text).toContain('abril');
    expect(p.delivery).toBe('sync');
    expect(p.estimated_duration_s).toBeGreaterThan(3);
    expect(p.dry_run).toBe(true);
    expect(
      previewConversion({ text: 'a'.repeat(3001), voice, fmt: 'mp3', syncMaxChars: 3000 }).delivery,
    ).toBe('queued');
  });
  test('chapter start times grow with their offsets', () => {
    const text = `Capítulo 1\n\n${para}\n\nCapítulo 2\n\n${para}\n\n${para}\n\nCapítulo 3\n\n${para}`;
    const p = previewConversion({ text, voice, fmt: 'ogg', syncMaxChars: 3000 });
    expect(p.chapters.map((c) => c.title)).toEqual(['Capítulo 1', 'Capítulo 2', 'Capítulo 3']);
    expect(p.chapters[0]!.start_s).toBe(0);
    expect(p.chapters[1]!.start_s).toBeGreaterThan(0);
    expect(p.chapters[2]!.start_s).toBeGreaterThan(p.chapters[1]!.start_s);
    expect(p.chapters[2]!.start_s).toBeLessThan(p.estimated_duration_s);
  });
  test('dry_run query values', () => {
    expect(isDryRun({ dry_run: 'true' })).toBe(true);
    expect(isDryRun({ dry_run: '1' })).toBe(true);
    expect(isDryRun({ dry_run: 'false' })).toBe(false);
    expect(isDryRun({})).toBe(false);
  });
});
