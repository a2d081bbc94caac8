// The template sandbox: callers' Jinja2 runs in an isolated-vm isolate. Escape payloads must leak nothing and
// execute nothing, runaway templates are stopped (time, memory) with the host healthy and the next render working,
// data cannot pollute prototypes, autoescape is on, and only built-in partials can be included.
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateError } from '../../lambdas/documents/errors';
import { documentsManifest } from '../../lambdas/documents/routes';
import { errorResponse } from '../../lambdas/shared/http/api-handler';
import { builtInPartials } from '../../lambdas/documents/domain/template-registry';
import { TemplateSandbox } from '../../lambdas/documents/templating/sandbox';

// 5 s, not production's 500 ms: on a loaded CI machine (load ~10) ordinary templates passed 500 ms of wall time
// (ci46, documents-templates); the time limit is still what stops the endless loop below, 5 s later.
const sandbox = new TemplateSandbox({ timeoutMs: 5000 });
afterAll(() => sandbox.dispose());

const render = (src: string, data: unknown = {}) =>
  sandbox.render(src, data, { partials: builtInPartials() });

async function failure(src: string, data: unknown = {}): Promise<TemplateError> {
  try {
    await render(src, data);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  throw new Error(`expected ${src} to fail`);
}

const marker = join(tmpdir(), `documents-sandbox-escape-${process.pid}`);
beforeEach(() => rmSync(marker, { force: true }));

describe('escape payloads leak nothing and execute nothing', () => {
  // Each payload tries to reach the host: run a command, write a file, or print process/env/require.
  const writeFile = `process.mainModule.require('fs').writeFileSync('${marker}', 'x')`;
  const payloads: [string, string][] = [
    [
      'range.constructor → child_process',
      `{{ range.constructor("return process.mainModule.require('child_process').execSync('id').toString()")() }}`,
    ],
    ['range.constructor → fs write', `{{ range.constructor("${writeFile}")() }}`],
    ["''.constructor.constructor → this", `{{ ''.constructor.constructor('return this')() }}`],
    [
      "''.constructor.constructor → globalThis.process",
      `{{ ''.constructor.constructor('return typeof globalThis.process + typeof require + typeof module')() }}`,
    ],
    ['cycler.constructor', `{{ cycler.constructor("return process.env")() }}`],
    ['joiner.constructor', `{{ joiner.constructor("${writeFile}")() }}`],
    ['namespace.constructor', `{{ namespace.constructor("return process.versions.node")() }}`],
    ['lipsum.__globals__', `{{ lipsum.__globals__ }}{{ lipsum.__globals__.os.popen('id').read() }}`],
    [
      'self / config / request (Flask-style)',
      `{{ self }}{{ config.items() }}{{ request.application.__globals__ }}`,
    ],
    ['[].__proto__ chain', `{{ [].__proto__.constructor.constructor("return process.pid")() }}`],
    ['filter function constructor', `{{ "x"|attr("constructor")|attr("constructor") }}`],
    ['set + call', `{% set f = range.constructor %}{{ f("return process.env.HOME")() }}`],
  ];

  it.each(payloads)('%s', async (_name, payload) => {
    let out = '';
    try {
      out = await render(payload);
    } catch (err) {
      expect(err).toBeInstanceOf(TemplateError); // a 400, never a host crash
      out = (err as TemplateError).problems[0]!.msg;
    }
    expect(existsSync(marker)).toBe(false);
    expect(out).not.toMatch(/uid=\d+/);
    expect(out).not.toContain(process.env.HOME ?? '/root');
    expect(out).not.toContain(String(process.pid));
    expect(out).not.toContain(process.versions.node);
    expect(out).not.toMatch(/\bobject(object|function)/); // typeof process / require inside the realm
    expect(out).not.toContain('PATH=');
  });

  it('gives the realm no process, require, module, timers or network', async () => {
    const out = await render(
      `{{ ''.constructor.constructor('return [typeof process, typeof require, typeof module, typeof setTimeout, typeof fetch, typeof XMLHttpRequest, typeof WebSocket].join()')() }}`,
    );
    expect(out).toBe('undefined,undefined,undefined,undefined,undefined,undefined,undefined');
  });

  it('keeps nothing from one render to the next (fresh context per render)', async () => {
    await render(
      `{{ ''.constructor.constructor('globalThis.leak = 42; Object.prototype.polluted = 1; return 1')() }}`,
    );
    const out = await render(
      `{{ ''.constructor.constructor('return String(typeof globalThis.leak) + String(({}).polluted)')() }}`,
    );
    expect(out).toBe('undefinedundefined');
  });
});

describe('data cannot pollute prototypes', () => {
  it('treats __proto__ in data as a plain key, inside the realm and on the host', async () => {
    const data = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "a": {"__proto__": {"isAdmin": true}}, "x": {}}',
    );
    const out = await render('[{{ x.polluted }}][{{ a.isAdmin }}][{{ polluted }}]', data);
    expect(out).toBe('[][][]');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('cannot reach Object.prototype through constructor.prototype', async () => {
    await render(`{% set p = x.constructor.prototype %}{{ p }}`, { x: {} }).catch(() => '');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('runaway templates are stopped and the host stays healthy', () => {
  it('stops range(100000000) and the next render succeeds', async () => {
    const err = await failure('{% for i in range(100000000) %}{{ i }}{% endfor %}');
    expect(['template_timeout', 'template_memory_limit']).toContain(err.problems[0]!.type);
    expect(errorResponse(err, 'r', documentsManifest.invalidRequestStatus).statusCode).toBe(400);
    expect(await render('ok {{ 1 + 1 }}')).toBe('ok 2');
  });

  it('stops an endless loop by time', async () => {
    const err = await failure(
      '{% for i in range(3000) %}{% for j in range(3000) %}{% for k in range(3000) %}{% endfor %}{% endfor %}{% endfor %}',
    );
    expect(err.problems[0]!.type).toBe('template_timeout');
    expect(err.problems[0]!.msg).toMatch(/too long/);
    expect(await render('{{ "still" }} alive')).toBe('still alive');
  });

  it('stops a memory bomb (string doubling) and the next render succeeds', async () => {
    const err = await failure(
      '{% set s = "xxxxxxxxxxxxxxxx" %}{% for i in range(23) %}{% set s = s ~ s %}{% endfor %}{{ s|upper|length }}',
    );
    expect(err.problems[0]!.type).toBe('template_memory_limit');
    expect(err.problems[0]!.msg).toMatch(/too much memory/);
    expect(await render('{{ n }}', { n: 7 })).toBe('7');
  });

  it('refuses output larger than the limit', async () => {
    // 6 × 2²² = 25,165,824 characters: just over the 20 MB limit, well under the memory limit. Its own sandbox
    // allows 30 s, so the output limit is what stops it: with the 500 ms default, building the string timed out
    // first at load ~10 (stop 37's CI).
    const own = new TemplateSandbox({ timeoutMs: 30_000 });
    try {
      const err = await own
        .render('{% set s = "abcdef" %}{% for i in range(22) %}{% set s = s ~ s %}{% endfor %}{{ s }}', {})
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(TemplateError);
      expect((err as TemplateError).problems[0]!.type).toBe('template_output_too_large');
      expect(await own.render('fine', {})).toBe('fine');
    } finally {
      own.dispose();
    }
  }, 60_000);

  it('renders concurrently without mixing data', async () => {
    const outs = await Promise.all(Array.from({ length: 6 }, (_, i) => render('n={{ n }}', { n: i })));
    expect(outs).toEqual(['n=0', 'n=1', 'n=2', 'n=3', 'n=4', 'n=5']);
  });

  it('a runaway template stopped mid-flight does not fail the renders sharing its isolate (they are retried)', async () => {
    // A limit the legitimate renders stay far under on a loaded machine too (ci35, at load 11: with 300 ms the
    // first of them timed out itself, and its own isolate's disposal failed the others); the runaway never ends.
    const own = new TemplateSandbox({ timeoutMs: 1500 });
    try {
      // Slow but legitimate renders (a few ms each) queued on the same isolate as a runaway loop.
      const fine = (i: number) =>
        own.render(
          '{% for x in range(20000) %}{% endfor %}n={{ n }}',
          { n: i },
          { partials: builtInPartials() },
        );
      const results = await Promise.allSettled([
        fine(0),
        // Nested small ranges: pure CPU (range(1e8) would build a huge array and may hit the memory limit first).
        own.render('{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}', {}),
        fine(1),
        fine(2),
        fine(3),
      ]);
      expect(results[1]).toMatchObject({ status: 'rejected', reason: { kind: 'timeout' } });
      const others = results.filter((_, i) => i !== 1);
      expect(others.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
        'n=0',
        'n=1',
        'n=2',
        'n=3',
      ]);
    } finally {
      own.dispose();
    }
  });
});

describe('autoescape and includes', () => {
  it('escapes data (autoescape on) unless marked safe', async () => {
    const out = await render('<p>{{ v }}</p><p>{{ v|safe }}</p>', { v: '<script>alert(1)</script>' });
    expect(out).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p><script>alert(1)</script></p>');
    expect(await render('{{ "<b>" ~ v }}', { v: '"&' })).toBe('&lt;b&gt;&quot;&amp;');
  });

  it.each([
    '{% include "/etc/passwd" %}',
    '{% include "../../package.json" %}',
    '{% include "http://127.0.0.1:9/x" %}',
    '{% extends "mi-base.html" %}',
    '{% import "secrets.html" as s %}',
    '{% include name %}',
  ])('refuses %s', async (src) => {
    const err = await failure(src, { name: '/etc/hostname' });
    expect(err.problems[0]!.type).toBe('template_include_refused');
    expect(err.problems[0]!.msg).toMatch(
      /not a built-in partial; available: base\.html, estilos\.html, macros\.html/,
    );
  });

  it('allows the built-in partials: extends, include, import', async () => {
    const out = await render(
      '{% extends "base.html" %}{% import "macros.html" as m %}{% block titulo %}T{% endblock %}{% block contenido %}{{ m.dato("RFC", rfc) }}{% endblock %}',
      { rfc: 'EKU9003173C9' },
    );
    expect(out).toContain('<title>T</title>');
    expect(out).toContain('<span class="etiqueta">RFC</span>EKU9003173C9');
    expect(out).toContain('<style>');
  });
});

describe('built-in macros', () => {
  it('tabla, dato and firma render with es-MX formats', async () => {
    const out = await render(
      `{% import "macros.html" as m %}{{ m.tabla(filas, [{"campo": "p", "titulo": "Producto"}, {"campo": "u", "titulo": "Unidades", "tipo": "numero"}, {"campo": "i", "titulo": "Importe", "tipo": "moneda"}]) }}{{ m.firma("Ana", "Directora") }}`,
      { filas: [{ p: 'Café <molido>', u: 1200, i: 1234.5 }] },
    );
    const text = out.replace(/\s+/g, ' ');
    expect(text).toContain('<th class="num">Importe</th>');
    expect(text).toContain('<td>Café &lt;molido&gt;</td>');
    expect(text).toContain('<td class="num">1,200</td>');
    expect(text).toContain('<td class="num">$1,234.50</td>');
    expect(text).toContain('<div class="raya">Ana</div><div class="cargo">Directora</div>');
  });
});

describe('errors point at the template', () => {
  it('reports syntax errors with line and column', async () => {
    const err = await failure('línea uno\n{% for x in %}\n{% endfor %}');
    expect(err.problems[0]).toMatchObject({
      loc: ['body', 'custom_html'],
      type: 'template_syntax_error',
      ctx: { line: 2 },
    });
    expect(err.problems[0]!.msg).toMatch(/line 2/);
  });

  it('reports unclosed blocks', async () => {
    const err = await failure('{% if x %}sin cerrar');
    expect(err.problems[0]!.type).toBe('template_syntax_error');
  });

  it('reports errors while rendering', async () => {
    const err = await failure('{{ x|currency("NOPE") }}', { x: 1 });
    expect(err.problems[0]!.type).toBe('template_render_error');
  });
});

describe('Jinja2 semantics', () => {
  const cases: [string, string, unknown][] = [
    ['{{ [0.1, 0.2]|sum }}', '0.3', {}],
    ["{{ items|sum(attribute='precio') }}", '0.3', { items: [{ precio: 0.1 }, { precio: 0.2 }] }],
    ['{{ 2.675|round(2) }} {{ 1.005|round(2) }} {{ 7.5|round }}', '2.68 1.01 8', {}],
    ["{{ 2.5|round(0, 'floor') }} {{ 2.1|round(method='ceil') }}", '2 3', {}],
    ['{{ "%s tiene %d años y %.2f kg"|format("Ana", 30, 61.456) }}', 'Ana tiene 30 años y 61.46 kg', {}],
    ['{{ "%05.1f|%-4s|%x"|format(3.14159, "ab", 255) }}', '003.1|ab  |ff', {}],
    ['{{ 1234567.891|currency }}', '$1,234,567.89', {}],
    [
      "{{ 99.5|currency('USD') }} {{ 10|currency('EUR') }} {{ 1500|currency('JPY') }}",
      'USD 99.50 EUR 10.00 JPY 1,500',
      {},
    ],
    ['{{ 1234.5|number }} {{ 1234.5|number(0) }} {{ 0.256|percent(1) }}', '1,234.50 1,235 25.6 %', {}],
    [
      '{{ "2024-03-05"|date }} {{ "2024-03-05"|date("long") }} {{ "2024-12-01"|date("%d %b %Y") }}',
      '05/03/2024 5 de marzo de 2024 01 dic 2024',
      {},
    ],
    ['{{ missing|default("—") }}{{ ""|d("vacío", true) }}', '—vacío', {}],
    ['{{ items|length }} {{ items|count }} {{ d|length }}', '3 3 2', { items: [1, 2, 3], d: { a: 1, b: 2 } }],
    [
      "{{ users|map(attribute='name')|join(', ') }}",
      'Ana, Luis',
      { users: [{ name: 'Ana' }, { name: 'Luis' }] },
    ],
    [
      "{{ users|selectattr('active')|map(attribute='name')|join }}",
      'Ana',
      {
        users: [
          { name: 'Ana', active: true },
          { name: 'Luis', active: false },
        ],
      },
    ],
    [
      "{{ nums|select('odd')|list|join(',') }} {{ nums|reject('odd')|list|join(',') }}",
      '1,3 2',
      { nums: [1, 2, 3] },
    ],
    [
      "{{ users|selectattr('age', 'ge', 18)|map(attribute='name')|join }}",
      'Luis',
      {
        users: [
          { name: 'Ana', age: 12 },
          { name: 'Luis', age: 40 },
        ],
      },
    ],
    [
      '{% for g in rows|groupby("zona") %}{{ g.grouper }}:{{ g.list|length }};{% endfor %}',
      'norte:2;sur:1;',
      { rows: [{ zona: 'sur' }, { zona: 'norte' }, { zona: 'norte' }] },
    ],
    [
      '{% for zona, filas in rows|groupby("zona") %}{{ zona }}={{ filas|sum(attribute="v") }};{% endfor %}',
      'norte=3;sur=1;',
      {
        rows: [
          { zona: 'sur', v: 1 },
          { zona: 'norte', v: 1 },
          { zona: 'norte', v: 2 },
        ],
      },
    ],
    ['{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}', 'a=1;b=2;', { d: { a: 1, b: 2 } }],
    ['{{ factura.items|length }}', '2', { factura: { items: [1, 2] } }],
    [
      '{% if lista %}llena{% else %}vacía{% endif %} {{ "sí" if d else "no" }} {{ lista or "nada" }}',
      'vacía no nada',
      { lista: [], d: {} },
    ],
    [
      '{% if not lista %}vacía{% endif %}{% if n is none %} none{% endif %}{% if 3 is integer %} int{% endif %}',
      'vacía none int',
      { lista: [], n: null },
    ],
    [
      '{{ v|tojson }}',
      '{&quot;a&quot;:&quot;\\u003c/script\\u003e&quot;}'.replace(/&quot;/g, '"'),
      { v: { a: '</script>' } },
    ],
    [
      '{{ [3, 1, 2]|sort|join }} {{ [3, 1, 2]|sort(reverse=true)|join }} {{ [3, 1, 2]|max }} {{ ["b", "a", "B"]|unique|join }}',
      '123 321 3 ba',
      {},
    ],
    [
      '{{ "hola mundo"|title }} {{ "ABC"|lower }} {{ "  x "|trim }} {{ "a-b"|replace("-", "+") }}',
      'Hola Mundo abc x a+b',
      {},
    ],
    ['{{ "una frase bastante larga"|truncate(9, true, "…", 0) }}', 'una frase…', {}],
    // Documented difference: nunjucks lets a loop's {% set %} reach the outer variable (Jinja2 would print 0 and
    // needs namespace()); accumulating totals this way works.
    [
      '{% set total = 0 %}{% for x in xs %}{% set total = total + x %}{% endfor %}{{ total }}',
      '3',
      { xs: [1, 2] },
    ],
    ['{{ True }} {{ None is none }} {{ 7 // 2 }} {{ 2 ** 3 }} {{ "a" ~ 1 }}', 'true true 3 8 a1', {}],
    ['{{ dict(a=1, b=2)|length }} {{ loop }}', '2 ', {}],
    ['{% for x in xs %}{{ loop.index }}{{ "," if not loop.last }}{% endfor %}', '1,2,3', { xs: [7, 8, 9] }],
    [
      '{% macro saludo(n, s="Hola") %}{{ s }} {{ n }}{% endmacro %}{{ saludo("Ana") }}/{{ saludo("Luis", s="Adiós") }}',
      'Hola Ana/Adiós Luis',
      {},
    ],
    ['{% raw %}{{ literal }}{% endraw %}', '{{ literal }}', {}],
    ['{{ xs[1:] | join }}', '23', { xs: [1, 2, 3] }],
  ];
  it.each(cases)('%s', async (src, expected, data) => {
    // Intl puts a no-break space between a currency code and the amount.
    expect((await render(src, data)).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});
