// The html format's CSS inlining (lambdas/documents/formats/inline-css.ts) against juice itself, the reference it
// replaces for speed: byte-identical output on every built-in template (samples and the large factura), on a corpus
// of cascade edge cases, and on generated documents and selectors (fixed seed). The one intended difference (a style
// attribute without declarations, on which juice throws) is asserted on its own.
import fc from 'fast-check';
import juice from 'juice';
import { inlineCss } from '../../lambdas/documents/formats/inline-css';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { parseRenderRequest, renderDocument } from '../../lambdas/documents/use-cases/render-request';
import type { TemplateSandbox } from '../../lambdas/documents/templating/sandbox';
import { largeFactura } from '../../templates/factura/examples';

const reference = (html: string) =>
  juice(html, { removeStyleTags: false, preserveImportant: true, applyStyleTags: true });

/**
 * The HTML the route hands to the html format (and to Chromium) for a pdf request. Caller header/footer HTML is
 * answered by a stand-in for the sandbox (it only matters here for what it changes in the template).
 */
async function documentHtml(body: unknown): Promise<string> {
  let html = '';
  const capture = async (h: string) => {
    html = h;
    return Buffer.alloc(0);
  };
  const sandbox = { render: async () => '<p>pie</p>' } as unknown as TemplateSandbox;
  await renderDocument(parseRenderRequest(body), { renderPdf: capture, renderPng: capture, sandbox });
  return html;
}

describe('inlineCss: the same output as juice', () => {
  it.each(TEMPLATES.map((t) => t.meta.slug))('built-in template %s (its sample)', async (slug) => {
    const t = TEMPLATES.find((x) => x.meta.slug === slug)!;
    const html = await documentHtml({ template: slug, format: 'pdf', data: t.sample });
    const out = inlineCss(html);
    expect(out).toBe(reference(html));
    expect(out).toMatch(/<body[^>]* style="[^"]+"/); // something was inlined
  });

  it('factura with 60 conceptos and a caller footer (other @page block)', async () => {
    const t = TEMPLATES.find((x) => x.meta.slug === 'factura')!;
    const html = await documentHtml({
      template: 'factura',
      format: 'pdf',
      data: largeFactura(t.sample as never, 60),
      options: { footer_html: '<p>pie</p>' },
    });
    expect(inlineCss(html)).toBe(reference(html));
  });

  const CASES: Record<string, string> = {
    'cascade: specificity, order, !important, duplicates in one rule and in the style attribute': `
      <style>p { color: red; margin: 1px; } .a { color: blue !important; } #x { color: green; }
      p.a { margin: 2px; margin: 3px; } p { padding: 1px; padding-left: 2px; } p { padding: 4px; }</style>
      <p class="a" id="x" style="color: black; color: white; border: 0">t</p><p>u</p><p class="a">v</p>`,
    'same selector twice (separate rules chain differently than one rule)': `
      <style>.k { color: red; } .k { color: blue; } .k { color: red; color: green; }</style><div class="k">x</div>`,
    'variables: nested, fallback, unresolved, in shorthand, from ancestors only': `
      <style>:root { --a: #111; --b: var(--a); --w: 10px; } .c { --a: #222; }
      p { color: var(--b); border: 1px solid var(--a); margin: var(--nope, 3px); padding: var(--nope); }
      td { width: var(--w); background: rgb(1, 2, 3); }</style>
      <div class="c"><p>x</p></div><p>y</p><table><tr><td>z</td></tr></table>`,
    'table attributes: width/height px, %, auto; align, valign, bgcolor; gradients and url() backgrounds': `
      <style>table { width: 100%; height: auto; } td { width: 20px !important; text-align: right;
      vertical-align: top; background-color: #fff; } th { background-image: url("a.png"); }
      td.g { background-image: linear-gradient(red, blue); } img { width: 30px; height: 2em; }
      div { width: 50%; text-align: center; }</style>
      <table><tr><th>h</th><td>a</td><td class="g" width="9">b</td></tr></table><img src="x.png"><div>d</div>`,
    'pseudo-classes: structural ones inline, hover/focus/visited do not, ::before/::after skipped': `
      <style>li:first-child { color: red; } li:nth-child(2n) { color: blue; } li:last-of-type { margin: 0; }
      a:hover { color: pink; } a:visited { color: gray; } li::before { content: "x"; color: red; }
      li:not(.z) { padding: 1px; } li:is(.y, .z) { border: 0; } ul:has(> .z) { margin: 2px; }
      input:focus { outline: 0; } p:empty { display: none; }</style>
      <ul><li>1</li><li class="y">2</li><li class="z">3</li></ul><a href="#">l</a><p></p><input>`,
    'combinators and attribute selectors (case-insensitive flag, unicode whitespace in class)': `
      <style>div > p { color: red; } h1 + p { color: blue; } h1 ~ span { margin: 0; } div p em { color: green; }
      [data-x="1"] { color: olive; } [class~="Q" i] { color: navy; } a[href^="http"] { color: teal; }
      .uno { border: 1px; } .DOS { border: 2px; } #MiId { margin: 1px; }</style>
      <div><p>a <em>b</em></p></div><h1>t</h1><p>c</p><span>d</span><span data-x="1">e</span>
      <b class="q">f</b><b class="uno\u00a0DOS">g</b><i id="MiId">h</i><a href="https://x">i</a>`,
    'jQuery positionals and :scope go through cheerio; leading combinators and invalid selectors are skipped': `
      <style>li:first { color: red; } li:eq(1) { color: blue; } li:odd { margin: 0; } :scope > body { margin: 0; }
      > p { color: red; } p[ { color: red; } ::selection { color: red; } p { color: black; }</style>
      <ul><li>1</li><li>2</li><li>3</li></ul><p>x</p>`,
    'head, title, style and script are never styled; html and body are': `
      <html><head><title>T</title><meta charset="utf-8"><style>* { margin: 0; } html, body { padding: 0; }
      title, script { color: red; }</style><script>var a = "<p>";</script></head><body><p>x</p></body></html>`,
    'several style blocks, one data-embed (kept out and its attribute removed), @media and @page kept': `
      <style>p { color: red; }</style><style data-embed>p { color: blue; }</style>
      <style>@media print { p { color: green; } } @page { margin: 1cm; } p { margin: 0; }</style>
      <p>x</p><style>p { padding: 0; }</style><style></style>`,
    'template code blocks, entities and quotes survive': `
      <style>p { font-family: "Noto Sans", 'Arial'; content: "no"; }</style>
      <p title="{{ x }}">{{ y }} &amp; &lt;b&gt; &nbsp;<%= z %> "q"</p>`,
    'svg and custom elements': `
      <style>svg { width: 10px; } rect { fill: red; } mi-elemento { color: red; } [viewBox] { height: 5px; }</style>
      <svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg><mi-elemento>x</mi-elemento>`,
  };
  it.each(Object.keys(CASES))('%s', (name) => {
    const html = CASES[name]!;
    expect(inlineCss(html)).toBe(reference(html));
  });

  it('generated documents and selectors (fixed seed)', () => {
    const tag = fc.constantFrom('div', 'p', 'span', 'td', 'tr', 'table', 'li', 'ul', 'img', 'em');
    const cls = fc.constantFrom('a', 'b', 'c', 'A');
    const node: fc.Memo<string> = fc.memo((depth) =>
      fc
        .tuple(
          tag,
          fc.subarray(['a', 'b', 'c', 'A']),
          fc.option(fc.constantFrom('color: black', 'width: 5px', 'margin: 1px; margin: 2px'), {
            nil: undefined,
          }),
          depth > 1 ? fc.array(node(depth - 1), { maxLength: 3 }) : fc.constant([] as string[]),
        )
        .map(([t, classes, style, kids]) => {
          const attrs = `${classes.length ? ` class="${classes.join(' ')}"` : ''}${style ? ` style="${style}"` : ''}`;
          return `<${t}${attrs}>${kids.join('')}x</${t}>`;
        }),
    );
    const compound = fc
      .tuple(
        fc.option(tag, { nil: '' }),
        fc.option(cls, { nil: '' }),
        fc.constantFrom('', ':first-child', ':nth-child(odd)', ':not(.b)', ':hover'),
      )
      .map(([t, c, p]) => `${t}${c ? `.${c}` : ''}${p}` || '*');
    const selector = fc
      .array(fc.tuple(compound, fc.constantFrom(' ', ' > ', ' + ', ' ~ ')), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([c, comb], i) => (i === parts.length - 1 ? c : c + comb)).join(''));
    const rule = fc
      .tuple(
        fc.array(selector, { minLength: 1, maxLength: 2 }),
        fc.constantFrom(
          'color: red',
          'color: blue !important',
          'width: 10%',
          'text-align: left',
          'margin: 3px',
        ),
      )
      .map(([sels, decl]) => `${sels.join(', ')} { ${decl}; }`);
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 8 }), node(4), (rules, body) => {
        const html = `<style>${rules.join('\n')}</style>${body}`;
        expect(inlineCss(html)).toBe(reference(html));
      }),
      { seed: 16, numRuns: 300 },
    );
  });

  it('one stylesheet, many documents: elements alike reuse a computed outcome only where it still holds', () => {
    // The same <style> every time (so its compiled rules and their memo of outcomes carry over between documents),
    // while custom properties, style attributes and nesting change: a stale replay would differ from juice.
    const style = `<style>:root { --a: #111; --w: 10px; } .c { --a: #222; } .n { --a: var(--w); }
      td { border: 1px solid var(--a); width: var(--w); } .k { color: var(--a, red); } p { margin: 1px; }
      td.k { padding: 2px; } tr:nth-child(odd) td { background: var(--a); }</style>`;
    const inline = fc.constantFrom('', ' style="--a: #333"', ' style="--w: 20px"', ' style="color: blue"');
    const cell = fc
      .tuple(fc.constantFrom('', ' class="k"', ' class="c"', ' class="n"', ' class="c k"'), inline)
      .map(([c, st]) => `<td${c}${st}><p${st}>x</p></td>`);
    const row = fc.array(cell, { minLength: 1, maxLength: 3 }).map((cells) => `<tr>${cells.join('')}</tr>`);
    const wrap = fc.tuple(fc.constantFrom('', ' class="c"', ' class="n"'), inline);
    fc.assert(
      fc.property(wrap, fc.array(row, { minLength: 1, maxLength: 4 }), inline, ([wc, ws], rows, hs) => {
        const html = `<html${hs}><head>${style}</head><body><div${wc}${ws}><table>${rows.join('')}</table></div></body></html>`;
        expect(inlineCss(html)).toBe(reference(html));
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe('inlineCss where juice throws', () => {
  it('a style attribute without declarations counts as empty (juice throws a TypeError)', () => {
    const html = '<style>p { color: red; }</style><p style=" ">x</p><p style=";">y</p>';
    expect(() => reference(html)).toThrow(TypeError);
    expect(inlineCss(html)).toBe(
      '<style>p { color: red; }</style><p style="color: red;">x</p><p style="color: red;">y</p>',
    );
  });
});
