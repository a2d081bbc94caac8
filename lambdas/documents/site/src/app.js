// The documents playground (bundled by scripts/build-site.ts; no framework: one form and a few regions). A person
// picks a built-in template (GET /templates), edits its sample data, checked as they type against the template's
// JSON Schema (lib/validate.js), picks one of the ten formats and renders through POST /v1/render; or, on the
// "HTML propio" tab, sends their own Jinja2 HTML (custom_html, paid keys). PDF and PNG are previewed from a blob:
// URL (the CSP's frame-src allows blob: for the PDF viewer), text formats are shown as text, and every result can
// be downloaded. The optional API key lives in sessionStorage only (this tab, until it closes). Section 4 sends a
// zip of stamped CFDI through the batch API (lib/lote.js) and follows it until its result zip is offered.
import { allowanceText, FORMATS, loadPricing, loadTemplates, priceText, render } from './lib/api.js';
import { $, el, failureParts, sizeText } from './lib/dom.js';
import { setUpBatch } from './lib/lote.js';
import { locate, makeChecker, parseJson } from './lib/validate.js';

const KEY_STORAGE = 'documentos.clave';
const TEXT_PREVIEW = new Set(['text/csv', 'text/markdown', 'text/plain', 'application/json']);

const EXAMPLE_HTML = `<style>
  body { font-family: "Noto Sans", sans-serif; margin: 2rem; color: #1f2328; }
  h1 { color: #0b57d0; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #c9d1d9; padding: 6px; text-align: left; }
</style>
<h1>Constancia para {{ nombre }}</h1>
<p>Emitida el {{ fecha }}.</p>
<table>
  <tr><th>Actividad</th><th>Horas</th></tr>
  {% for a in actividades %}
  <tr><td>{{ a.nombre }}</td><td>{{ a.horas }}</td></tr>
  {% endfor %}
</table>
{% if nota %}<p><em>{{ nota }}</em></p>{% endif %}
`;

const EXAMPLE_DATA = {
  nombre: 'Ana López Martínez',
  fecha: '25 de noviembre de 2026',
  actividades: [
    { nombre: 'Taller de facturación electrónica', horas: 8 },
    { nombre: 'Curso de hojas de cálculo', horas: 12 },
  ],
  nota: 'Gracias por tu participación.',
};

const state = {
  /** GET /templates body */
  listing: null,
  tab: 'plantillas',
  template: null,
  /** The person's edits per template slug, so switching back keeps them. */
  drafts: {},
  checkers: {},
  last: { problems: [], value: undefined },
  objectUrl: null,
  timer: 0,
};

function pretty(value) {
  return JSON.stringify(value, null, 2);
}

// ── Tabs (WAI-ARIA tabs pattern, automatic activation) ──────────────────────────────────────────────────────────

const TABS = [
  { id: 'plantillas', tab: 'pestana-plantillas', panel: 'panel-plantillas' },
  { id: 'propio', tab: 'pestana-propio', panel: 'panel-propio' },
];

function selectTab(id, focus) {
  state.tab = id;
  for (const t of TABS) {
    const on = t.id === id;
    const tab = $(t.tab);
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(t.panel).hidden = !on;
    if (on && focus) tab.focus();
  }
  fillFormats();
}

function setUpTabs() {
  TABS.forEach((t, i) => {
    const tab = $(t.tab);
    tab.addEventListener('click', () => selectTab(t.id, true));
    tab.addEventListener('keydown', (e) => {
      const last = TABS.length - 1;
      const to = {
        ArrowRight: i === last ? 0 : i + 1,
        ArrowLeft: i === 0 ? last : i - 1,
        Home: 0,
        End: last,
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      selectTab(TABS[to].id, true);
    });
  });
}

// ── Formats ──────────────────────────────────────────────────────────────────────────────────────────────────

function allowedFormats() {
  if (state.tab === 'propio')
    return state.listing ? state.listing.custom_html_formats : FORMATS.map((f) => f[0]);
  return state.template ? state.template.formats : ['pdf'];
}

function fillFormats() {
  const select = $('formato');
  const allowed = allowedFormats();
  const previous = select.value;
  select.replaceChildren(
    ...FORMATS.map(([value, label]) => {
      const ok = allowed.includes(value);
      return el('option', {
        value,
        text: ok
          ? label
          : `${label} — no disponible ${state.tab === 'propio' ? '' : 'con esta plantilla'}`.trim(),
        disabled: !ok,
      });
    }),
  );
  select.value = allowed.includes(previous) ? previous : allowed[0];
}

// ── Templates and their data ─────────────────────────────────────────────────────────────────────────────────

function chooseTemplate(slug) {
  const t = state.listing.templates.find((x) => x.slug === slug);
  if (!t) return;
  if (state.template) state.drafts[state.template.slug] = $('datos').value;
  state.template = t;
  $('plantilla').value = slug;
  $('plantilla-descripcion').textContent = t.purpose;
  $('enlace-muestra').href = t.sample_pdf_url;
  $('enlace-fuente').href = t.source_url;
  $('enlaces-plantilla').hidden = false;
  $('datos').value = state.drafts[slug] ?? pretty(t.sample);
  fillFormats();
  validateNow();
}

function checker() {
  const t = state.template;
  return (state.checkers[t.slug] ??= makeChecker(t.fields));
}

function showProblems(result) {
  const list = $('errores-datos');
  const status = $('estado-datos');
  const area = $('datos');
  state.last = result;
  if (result.problems.length === 0) {
    status.textContent = `✓ Los datos cumplen el esquema de «${state.template.title}».`;
    status.className = 'bien';
    area.removeAttribute('aria-invalid');
    area.setAttribute('aria-describedby', 'estado-datos');
    list.hidden = true;
    list.replaceChildren();
    return;
  }
  // The live status names the first problem, so a screen reader hears what is wrong while typing.
  const n = result.count;
  const first = result.problems[0];
  const firstText = `${first.path === '$' ? '' : `${first.path} `}${first.message}`;
  status.textContent =
    n === 1
      ? `Hay 1 problema en los datos: ${firstText}`
      : `Hay ${n} problemas en los datos${n > result.problems.length ? ` (se muestran ${result.problems.length})` : ''}. El primero: ${firstText}`;
  status.className = 'mal';
  area.setAttribute('aria-invalid', 'true');
  area.setAttribute('aria-describedby', 'estado-datos errores-datos');
  list.replaceChildren(
    ...result.problems.map((p) => {
      const go = el('button', {
        type: 'button',
        className: 'ruta',
        text: p.path,
        title: 'Ir a este lugar del JSON',
      });
      go.addEventListener('click', () => goTo(p));
      const item = el('li', {}, [go, ' ', el('span', { text: p.message })]);
      if (p.hint) item.append(el('span', { className: 'pista', text: ` ${p.hint}` }));
      return item;
    }),
  );
  list.hidden = false;
}

/** Moves the cursor to what a problem is about (the syntax error's offset, or the field its path names). */
function goTo(problem) {
  const area = $('datos');
  const text = area.value;
  const at =
    problem.offset !== undefined
      ? { offset: problem.offset, length: 1 }
      : locate(text, problem.segments || []);
  area.focus();
  if (at) area.setSelectionRange(at.offset, Math.min(text.length, at.offset + Math.max(1, at.length)));
}

function validateNow() {
  clearTimeout(state.timer);
  if (state.template) showProblems(checker()($('datos').value));
}

function setUpEditor() {
  $('plantilla').addEventListener('change', (e) => chooseTemplate(e.target.value));
  $('datos').addEventListener('input', () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(validateNow, 120);
  });
  $('restaurar').addEventListener('click', () => {
    if (!state.template) return;
    $('datos').value = pretty(state.template.sample);
    validateNow();
    $('datos').focus();
  });
  const own = $('datos-propio');
  const checkOwn = () => {
    const parsed = parseJson(own.value);
    const status = $('estado-datos-propio');
    status.textContent = parsed.error ? parsed.error.message : '✓ El JSON es válido.';
    status.className = parsed.error ? 'mal' : 'bien';
    if (parsed.error) own.setAttribute('aria-invalid', 'true');
    else own.removeAttribute('aria-invalid');
    return parsed;
  };
  own.addEventListener('input', checkOwn);
  $('html-propio').value = EXAMPLE_HTML;
  own.value = pretty(EXAMPLE_DATA);
  checkOwn();
  return checkOwn;
}

// ── API key (this tab only) ──────────────────────────────────────────────────────────────────────────────────

function setUpKey() {
  const input = $('clave');
  try {
    input.value = sessionStorage.getItem(KEY_STORAGE) || '';
  } catch {
    /* storage blocked: the field still works for this page */
  }
  input.addEventListener('input', () => {
    try {
      if (input.value.trim()) sessionStorage.setItem(KEY_STORAGE, input.value.trim());
      else sessionStorage.removeItem(KEY_STORAGE);
    } catch {
      /* storage blocked */
    }
  });
}

// ── Rendering ────────────────────────────────────────────────────────────────────────────────────────────────

function clearResult() {
  if (state.objectUrl) URL.revokeObjectURL(state.objectUrl);
  state.objectUrl = null;
  $('vista-previa').replaceChildren();
  $('error-resultado').replaceChildren();
  $('descarga').hidden = true;
}

function showError(failure) {
  const box = $('error-resultado');
  box.replaceChildren(...failureParts(failure));
  $('estado-resultado').textContent = `No se generó el documento: ${failure.title.toLowerCase()}.`;
  // On a phone the message may sit below the screen: bring it into view (role="alert" announces it).
  requestAnimationFrame(() => box.scrollIntoView({ block: 'nearest' }));
}

async function showResult(result) {
  const url = URL.createObjectURL(result.blob);
  state.objectUrl = url;
  const preview = $('vista-previa');
  if (result.type === 'application/pdf') {
    preview.append(
      el('iframe', { src: url, title: `Vista previa de ${result.filename}`, className: 'pdf' }),
      el('p', {
        className: 'nota',
        text: '¿No ves la vista previa? Algunos navegadores (sobre todo en el celular) no muestran PDF dentro de la página: usa «Descargar».',
      }),
    );
  } else if (result.type === 'image/png') {
    preview.append(el('img', { src: url, alt: `Vista previa de ${result.filename}` }));
  } else if (TEXT_PREVIEW.has(result.type)) {
    const text = await result.blob.text();
    const shown = text.length > 20000 ? `${text.slice(0, 20000)}\n…` : text;
    preview.append(
      el('pre', {
        tabIndex: 0,
        className: 'texto',
        'aria-label': `Contenido de ${result.filename}`,
        text: shown,
      }),
    );
  }
  const link = $('enlace-descarga');
  link.href = url;
  link.download = result.filename;
  link.textContent = `Descargar ${result.filename} (${sizeText(result.blob.size)})`;
  $('descarga').hidden = false;
  const left =
    result.remaining !== null && result.limit !== null
      ? ` Te quedan ${result.remaining} de ${result.limit} documentos este mes.`
      : '';
  const warn = result.warnings.length ? ` Avisos: ${result.warnings.join('; ')}.` : '';
  $('estado-resultado').textContent =
    `Listo: ${result.filename} (${sizeText(result.blob.size)}).${left}${warn}`;
}

function requestBody(checkOwn) {
  const format = $('formato').value;
  if (state.tab === 'propio') {
    const html = $('html-propio').value;
    const parsed = checkOwn();
    if (!html.trim()) return { problem: 'Escribe tu plantilla HTML.', focus: 'html-propio' };
    if (parsed.error) return { problem: parsed.error.message, focus: 'datos-propio' };
    return { body: { custom_html: html, format, data: parsed.value } };
  }
  validateNow();
  if (!state.template) return { problem: 'Las plantillas aún no cargan.', focus: 'plantilla' };
  if (state.last.problems.length)
    return { problem: 'Corrige los problemas marcados en los datos antes de generar.', focus: 'datos' };
  return { body: { template: state.template.slug, format, data: state.last.value } };
}

function setUpRender(checkOwn) {
  const button = $('generar');
  // Ctrl+Enter (⌘+Enter) in an editor generates, as in most code playgrounds.
  for (const id of ['datos', 'html-propio', 'datos-propio'])
    $(id).addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        $('formulario').requestSubmit();
      }
    });
  $('formulario').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (button.getAttribute('aria-disabled') === 'true') return;
    clearResult();
    const req = requestBody(checkOwn);
    if (req.problem) {
      $('estado-resultado').textContent = req.problem;
      $(req.focus).focus();
      return;
    }
    button.setAttribute('aria-disabled', 'true');
    button.textContent = 'Generando…';
    $('estado-resultado').textContent = 'Generando tu documento…';
    try {
      const result = await render(req.body, $('clave').value.trim());
      if (result.ok) await showResult(result);
      else showError(result);
    } finally {
      button.removeAttribute('aria-disabled');
      button.textContent = 'Generar documento';
    }
  });
}

// ── Prices (GET /pricing, so the page never states a price the API does not charge) ─────────────────────────

async function showPrices() {
  let plans;
  try {
    plans = (await loadPricing()).plans;
  } catch {
    return; // the links still name the plans; their pages state the price
  }
  const plan = (id) => plans.find((p) => p.id === id);
  const free = plan('free');
  if (free) $('cuota-gratis').textContent = `: ${allowanceText(free)}`;
  for (const id of ['pro', 'lifetime']) {
    const p = plan(id);
    if (!p) continue;
    const link = $(`comprar-${id}`);
    link.textContent = `${p.name} (${priceText(p)})`;
    if (p.checkout) link.href = `${p.checkout}?ref=playground`;
  }
}

// ── Start ────────────────────────────────────────────────────────────────────────────────────────────────────

async function start() {
  setUpTabs();
  setUpKey();
  const checkOwn = setUpEditor();
  setUpRender(checkOwn);
  setUpBatch({ key: () => $('clave').value.trim() });
  fillFormats();
  void showPrices();
  const select = $('plantilla');
  try {
    state.listing = await loadTemplates();
  } catch {
    select.replaceChildren(el('option', { text: 'No se pudieron cargar las plantillas' }));
    $('estado-datos').textContent =
      'No se pudieron cargar las plantillas. Recarga la página para intentarlo de nuevo.';
    return;
  }
  select.replaceChildren(
    ...state.listing.templates.map((t) => el('option', { value: t.slug, text: `${t.title} (${t.slug})` })),
  );
  select.disabled = false;
  chooseTemplate(state.listing.templates[0].slug);
}

start();
