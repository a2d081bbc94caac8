// certificado (pure, no Chromium): the schema (required vs optional, 1–3 signers, URL and colour checks), the
// es-MX long date, the size steps that keep long names on one page, escaping, and the verification QR drawn as SVG
// from the URL (its module matrix is read back from the SVG and compared with the encoder's).
import { create } from 'qrcode';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { builtInPartials, loadSource } from '../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { calcCertificado, certificado } from '../../templates/certificado/meta';
import { qrSvg } from '../../templates/kit/qr';
import { schema } from '../../templates/certificado/schema';

const base = {
  nombre: 'Ana Pérez',
  curso: 'Seguridad industrial',
  fecha: '2026-11-21',
  emisor: 'Capacitación Norte',
};

function html(data: unknown): string {
  const parsed = schema.parse(data);
  const { source, hash } = loadSource('certificado');
  return renderTrusted(source, certificado.view(parsed), builtInPartials(), `certificado@${hash}`);
}

function text(h: string): string {
  return h
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<title>[\s\S]*?<\/title>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;/g, ' ')
    .replace(/[\s\u00a0]+/g, ' ');
}

function problems(data: unknown) {
  const r = validateRenderRequest({ template: 'certificado', format: 'pdf', data });
  return r.ok ? [] : r.problems;
}

/** The dark modules of a QR SVG written by qrSvg, read back from its path (runs of `h` units per row). */
function modulesOf(svg: string): { size: number; dark: Set<string> } {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const d = /<path [^>]*d="([^"]+)"/.exec(svg)![1]!;
  const dark = new Set<string>();
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(m[3]); i++) dark.add(`${Number(m[1]) + i},${m[2]}`);
  }
  return { size, dark };
}

describe('certificado schema', () => {
  it('needs nombre, curso, fecha and emisor; everything else is optional', () => {
    expect(problems(base)).toEqual([]);
    const missing = problems({});
    expect(missing.map((p) => p.loc.slice(2).join('.')).sort()).toEqual([
      'curso',
      'emisor',
      'fecha',
      'nombre',
    ]);
    expect(missing.every((p) => p.type === 'missing')).toBe(true);
  });

  it('takes one to three signers', () => {
    const f = (n: number) => Array.from({ length: n }, (_, i) => ({ nombre: `Firma ${i}`, cargo: 'Cargo' }));
    expect(problems({ ...base, firmantes: f(3) })).toEqual([]);
    expect(problems({ ...base, firmantes: f(4) })).toEqual([
      expect.objectContaining({ loc: ['body', 'data', 'firmantes'], type: 'too_long' }),
    ]);
    expect(problems({ ...base, firmantes: [] })).toEqual([
      expect.objectContaining({ loc: ['body', 'data', 'firmantes'], type: 'too_short' }),
    ]);
    expect(problems({ ...base, firmantes: [{ cargo: 'Director' }] })).toEqual([
      expect.objectContaining({ loc: ['body', 'data', 'firmantes', 0, 'nombre'], type: 'missing' }),
    ]);
  });

  it('refuses a non-http URL, a bad date and a colour that is not hex', () => {
    const p = problems({
      ...base,
      url_verificacion: 'javascript:alert(1)',
      fecha: '2026-02-30',
      color: 'red',
    });
    expect(p.map((x) => x.loc.slice(2).join('.')).sort()).toEqual(['color', 'fecha', 'url_verificacion']);
  });
});

describe('certificado view', () => {
  it('prints the name, course, hours, place and the es-MX long date', () => {
    const t = text(html({ ...base, horas: 40, lugar: 'Saltillo, Coah.' }));
    expect(t).toContain('Ana Pérez');
    expect(t).toContain('Seguridad industrial');
    expect(t).toContain('con una duración de 40 horas');
    expect(t).toContain('Saltillo, Coah., a 21 de noviembre de 2026');
    expect(t).toContain('Por haber concluido satisfactoriamente');
    expect(t).toContain('Certificado');
  });

  it('writes "1 hora" and decimal hours in es-MX', () => {
    expect(calcCertificado(schema.parse({ ...base, horas: 1 })).horas_texto).toBe('1 hora');
    expect(calcCertificado(schema.parse({ ...base, horas: 2.5 })).horas_texto).toBe('2.5 horas');
    expect(calcCertificado(schema.parse({ ...base, horas: 1200 })).horas_texto).toBe('1,200 horas');
  });

  it('prints every signer with their role, or one line for the issuer when none are given', () => {
    const three = text(
      html({
        ...base,
        firmantes: [
          { nombre: 'Dra. Uno', cargo: 'Directora' },
          { nombre: 'Mtro. Dos', cargo: 'Coordinador' },
          { nombre: 'Lic. Tres' },
        ],
      }),
    );
    expect(three).toMatch(/Dra\. Uno Directora .*Mtro\. Dos Coordinador .*Lic\. Tres/);
    const none = html(base);
    expect(none.match(/class="firma-c"/g)).toHaveLength(1);
    // A blank line to sign by hand, above the issuer's name.
    expect(none).toMatch(/<div class="linea">&nbsp;<\/div><div class="cargo">Capacitación Norte<\/div>/);
  });

  it('steps long names and courses down so the page holds them', () => {
    const short = calcCertificado(schema.parse(base));
    expect([short.talla_nombre, short.talla_curso]).toEqual(['xl', 'xl']);
    const long = calcCertificado(schema.parse({ ...base, nombre: 'N'.repeat(200), curso: 'C'.repeat(300) }));
    expect([long.talla_nombre, long.talla_curso]).toEqual(['xs', 'xs']);
    expect(html({ ...base, nombre: 'N'.repeat(200) })).toContain('class="cert compacto"');
    expect(html(base)).toContain('class="cert"');
  });

  it('escapes caller text, also in the title and the colour', () => {
    const h = html({
      ...base,
      nombre: '<img src=x onerror=alert(1)>',
      emisor: 'A & B',
      titulo: '<b>Constancia</b>',
    });
    expect(h).not.toContain('<img src=x');
    expect(h).not.toContain('<b>Constancia');
    expect(h).toContain('&lt;img src=x');
    expect(h).toContain('A &amp; B');
    expect(h).not.toMatch(/<script/i);
  });

  it('uses the accent colour given', () => {
    expect(html({ ...base, color: '#7a1f3d' })).toContain('--acento: #7a1f3d');
    expect(html(base)).toContain('--acento: #1f3a5f');
  });
});

describe('verification QR', () => {
  it('is drawn only with a URL, as inline SVG next to the URL', () => {
    expect(html(base)).not.toContain('class="qr"');
    const url = 'https://cert.example.mx/v/ABC-123?x=1&y=2';
    const h = html({ ...base, url_verificacion: url, folio: 'ABC-123' });
    expect(h).toContain('<svg class="qr"');
    expect(text(h)).toContain('Verifique su autenticidad en cert.example.mx/v/ABC-123?x=1&y=2');
    expect(text(h)).toContain('Folio ABC-123');
  });

  it('carries exactly the modules the QR encoder computes for the URL (4-module quiet zone)', () => {
    const url = 'https://certificados.example.mx/v/DAP-2024-0457';
    const { size, dark } = modulesOf(qrSvg(url));
    const { modules } = create(url, { errorCorrectionLevel: 'M' });
    expect(size).toBe(modules.size + 8);
    let expected = 0;
    for (let y = 0; y < modules.size; y++)
      for (let x = 0; x < modules.size; x++) {
        const on = !!modules.get(y, x);
        if (on) expected++;
        expect([x, y, dark.has(`${x + 4},${y + 4}`)]).toEqual([x, y, on]);
      }
    expect(dark.size).toBe(expected);
  });

  it('escapes the label and differs for different URLs', () => {
    const a = qrSvg('https://a.example/"><script>', { label: '"><script>' });
    expect(a).not.toContain('<script>');
    expect(qrSvg('https://a.example/1')).not.toBe(qrSvg('https://a.example/2'));
  });
});
