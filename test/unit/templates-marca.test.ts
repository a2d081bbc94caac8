// options.marca (templates/kit/marca.ts): the logo is a PNG or an SVG data URI within its size limit; an SVG is rebuilt
// from an allowlist, so scripts, event handlers, foreign content, external references and styles never reach the
// document; colour and texts are checked; the option is refused where no template prints it.
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { LOGO_MAX_BYTES, logoSeguro, MarcaError, sanitizeSvg } from '../../templates/kit/marca';
import { marcaEjemplo } from '../../templates/factura/examples';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';

const svgUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const decode = (uri: string) => Buffer.from(uri.split(',')[1]!, 'base64').toString('utf8');
const NS = 'xmlns="http://www.w3.org/2000/svg"';

function png(w: number, h: number, extra = 0): Buffer {
  const b = Buffer.alloc(33 + extra);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

describe('SVG logo sanitised by allowlist', () => {
  it('keeps shapes, text, gradients and presentation attributes', () => {
    const svg = `<svg ${NS} viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/><text x="1" y="9">Hola &amp; adiós</text></svg>`;
    expect(sanitizeSvg(svg)).toBe(
      `<svg ${NS} viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"></stop></linearGradient></defs><rect width="10" height="10" fill="url(#g)"></rect><text x="1" y="9">Hola &amp; adiós</text></svg>`,
    );
  });

  it('drops script, event handlers, foreignObject, style, external images and links, javascript: and external url()', () => {
    const evil = `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)"><script>alert(2)</script>
      <style>@import url(http://127.0.0.1:9/x.css);</style>
      <foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="http://127.0.0.1:9/"/></foreignObject>
      <image href="http://127.0.0.1:9/x.png" width="1" height="1"/>
      <a href="javascript:alert(3)"><rect width="1" height="1"/></a>
      <use xlink:href="http://127.0.0.1:9/s.svg#x"/><use href="#ok"/>
      <rect id="ok" width="2" height="2" fill="url(http://127.0.0.1:9/f)" style="fill:red" onclick="x()"/></svg>`;
    const out = sanitizeSvg(evil);
    for (const bad of [
      'script',
      'alert',
      'onload',
      'onclick',
      'style',
      'foreignObject',
      'iframe',
      'image',
      '127.0.0.1',
      'javascript',
    ])
      expect(out).not.toContain(bad);
    expect(out).toContain('<use href="#ok"></use>');
    expect(out).toContain('<rect id="ok" width="2" height="2"></rect>');
  });

  it('refuses a DOCTYPE (entities), a non-SVG root and malformed XML', () => {
    expect(() => sanitizeSvg(`<!DOCTYPE svg [<!ENTITY x "y">]><svg ${NS}>&x;</svg>`)).toThrow(MarcaError);
    expect(() => sanitizeSvg('<html><body/></html>')).toThrow(/not an SVG document/);
    expect(() => sanitizeSvg(`<svg ${NS}><rect>`)).toThrow(/not well-formed/);
  });
});

describe('logo data URI', () => {
  it('PNG: checked by signature and IHDR, size and dimensions limited', () => {
    expect(logoSeguro(`data:image/png;base64,${png(120, 40).toString('base64')}`)).toMatch(
      /^data:image\/png;base64,/,
    );
    expect(() => logoSeguro(`data:image/png;base64,${Buffer.from('<svg/>').toString('base64')}`)).toThrow(
      /not a PNG/,
    );
    expect(() => logoSeguro(`data:image/png;base64,${png(5000, 10).toString('base64')}`)).toThrow(
      /at most 4000/,
    );
    expect(() =>
      logoSeguro(`data:image/png;base64,${png(10, 10, LOGO_MAX_BYTES).toString('base64')}`),
    ).toThrow(/at most 204800/);
  });

  it('SVG in base64 or percent-encoded, rebuilt; other types and remote URLs refused', () => {
    expect(decode(logoSeguro(svgUri(`<svg ${NS}><script>x</script><circle r="1"/></svg>`)))).toBe(
      `<svg ${NS}><circle r="1"></circle></svg>`,
    );
    expect(decode(logoSeguro(`data:image/svg+xml;utf8,${encodeURIComponent(`<svg ${NS}/>`)}`))).toBe(
      `<svg ${NS}></svg>`,
    );
    expect(() => logoSeguro('https://example.com/logo.png')).toThrow(/data URI of a PNG or an SVG/);
    expect(() => logoSeguro('data:text/html;base64,PGh0bWw+')).toThrow(/data URI/);
  });
});

describe('options.marca in a request', () => {
  const factura = (marca: unknown) =>
    validateRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: { empresa: 'X', cliente: 'Y', items: [{ concepto: 'a', cantidad: 1, precio: 1 }] },
      options: { marca },
    });

  it('the example brand is valid; its colour becomes the accent and the logo is the sanitised one', () => {
    expect(factura(marcaEjemplo).ok).toBe(true);
  });

  it('a bad colour, a bad logo, an unknown member: 400s at body.options.marca…', () => {
    const r = factura({ color: 'green', logo: 'data:image/png;base64,AAAA', sitio: 'x' });
    expect(r.ok ? [] : r.problems.map((p) => p.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.options.marca.color', 'body.options.marca.logo', 'body.options.marca']),
    );
  });

  it('a merge: the brand goes to the factura parts, the others render without it', () => {
    const r = validateRenderRequest({
      format: 'pdf',
      documents: [
        { template: 'factura', data: findTemplate('factura')!.sample },
        { template: 'ventas', data: findTemplate('ventas')!.sample },
      ],
      options: { marca: { color: '#112233' } },
    });
    expect(r.ok).toBe(true);
    const parts = r.ok && r.request.kind === 'merge' ? r.request.parts : [];
    expect(parts.map((p) => (p.options as { marca?: unknown }).marca)).toEqual([
      { color: '#112233' },
      undefined,
    ]);
  });

  it('refused for templates that do not print it, and for custom_html', () => {
    const v = validateRenderRequest({
      template: 'ventas',
      format: 'pdf',
      data: findTemplate('ventas')!.sample,
      options: { marca: { color: '#000000' } },
    });
    expect(v.ok || v.problems).toEqual([
      expect.objectContaining({ loc: ['body', 'options', 'marca'], type: 'unsupported_option' }),
    ]);
    const c = validateRenderRequest({
      custom_html: '<p>x</p>',
      format: 'pdf',
      data: {},
      options: { marca: { color: '#000000' } },
    });
    expect(c.ok || c.problems).toEqual([
      expect.objectContaining({
        loc: ['body', 'options', 'marca'],
        msg: expect.stringContaining('custom_html'),
      }),
    ]);
  });
});
