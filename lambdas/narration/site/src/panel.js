// The read-only dashboard (/panel): asks for the dashboard token, keeps it in sessionStorage (this tab only) and
// sends it as `Authorization: Bearer …` to GET /dashboard/summary and GET /ab/results/{experiment}; never in a URL.
// Everything from the API is put on the page with textContent (sources are free text typed by visitors).
const KEY = 'voz-panel-token';
const $ = (id) => document.getElementById(id);
const count = new Intl.NumberFormat('es-MX');
const num = (n) => (n === null || n === undefined ? '—' : count.format(n));
const pct = (x, signed) =>
  x === null || x === undefined ? '—' : `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const fixed = (x, d) => (x === null || x === undefined ? '—' : x.toFixed(d));
const pValue = (p) => (p === null || p === undefined ? '—' : p < 0.0001 ? '< 0.0001' : p.toFixed(4));

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

class HttpError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function getJson(path, token) {
  const res = await fetch(path, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'accept-language': 'es-MX, es;q=0.9',
    },
    cache: 'no-store',
  });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) throw new HttpError(res.status, typeof body?.detail === 'string' ? body.detail : '');
  return body;
}

function loginMessage(err) {
  if (err instanceof HttpError && err.status === 401)
    return 'El token no es correcto. Revísalo (sin espacios de más) y vuelve a intentarlo.';
  if (err instanceof HttpError && err.status === 503)
    return 'El panel está desactivado: el servidor no tiene un token configurado (DASHBOARD_TOKEN). Pídele a quien opera el servicio que lo configure.';
  return 'No pudimos cargar el panel. Revisa tu conexión y vuelve a intentarlo en un momento.';
}

function figures(dl, items) {
  dl.replaceChildren(
    ...items.map(([label, value, field]) => {
      const div = el('div');
      div.append(el('dt', {}, label), el('dd', { 'data-field': field }, value));
      return div;
    }),
  );
}

function experimentTable(result) {
  const wrap = el('div', { class: 'scroll', role: 'region', tabindex: '0' });
  const table = el('table', { 'data-experiment': result.experiment });
  const caption = el(
    'caption',
    { id: `exp-${result.experiment}` },
    `${result.experiment} (control: ${result.control})`,
  );
  wrap.setAttribute('aria-labelledby', caption.id);
  const head = el('tr');
  for (const [label, isNum] of [
    ['Variante', false],
    ['Exposiciones', true],
    ['Conversiones', true],
    ['Tasa', true],
    ['Mejora vs. control', true],
    ['z', true],
    ['Valor p', true],
    ['¿Significativo?', false],
  ])
    head.append(el('th', { scope: 'col', ...(isNum ? { class: 'num' } : {}) }, label));
  const body = el('tbody');
  for (const v of result.variants) {
    const row = el('tr', { 'data-variant': v.variant });
    row.append(
      el('th', { scope: 'row' }, v.variant === result.control ? `${v.variant} (control)` : v.variant),
    );
    const cells = [
      ['exposures', num(v.exposures)],
      ['conversions', num(v.conversions)],
      ['rate', pct(v.rate)],
      ['uplift', pct(v.uplift, true)],
      ['z', fixed(v.z, 2)],
      ['p_value', pValue(v.p_value)],
    ];
    for (const [field, text] of cells) row.append(el('td', { class: 'num', 'data-field': field }, text));
    const sig = v.significant === null ? '—' : v.significant ? 'Sí' : 'No';
    row.append(el('td', { 'data-field': 'significant', class: v.significant ? 'yes' : 'no' }, sig));
    body.append(row);
  }
  const thead = el('thead');
  thead.append(head);
  table.append(caption, thead, body);
  wrap.append(table);
  const out = el('div');
  out.append(wrap);
  for (const note of result.notes ?? []) out.append(el('p', { class: 'hint' }, note));
  return out;
}

function renderExperiments(names, results) {
  const box = $('experiments');
  if (!names.length) {
    box.replaceChildren(el('p', {}, 'No hay experimentos configurados (AB_EXPERIMENTS está vacío).'));
    return;
  }
  box.replaceChildren(
    ...results.map((r, i) =>
      r.ok
        ? experimentTable(r.value)
        : el('p', { class: 'status error' }, `No pudimos leer «${names[i]}»: ${r.error}`),
    ),
  );
}

function renderSummary(s) {
  figures($('waitlist-figures'), [
    ['Personas en la lista', num(s.waitlist.count), 'waitlist-count'],
    ['Interés en Pro', num(s.waitlist.interest.pro), 'interest-pro'],
    ['Interés en Lifetime', num(s.waitlist.interest.lifetime), 'interest-lifetime'],
    ['Fuentes distintas', num(s.waitlist.distinct_sources), 'distinct-sources'],
  ]);
  const sources = $('sources').tBodies[0];
  sources.replaceChildren(
    ...(s.waitlist.sources.length
      ? s.waitlist.sources.map((x) => {
          const row = el('tr', { 'data-source': x.source });
          row.append(el('td', {}, x.source), el('td', { class: 'num', 'data-field': 'count' }, num(x.count)));
          return row;
        })
      : [emptyRow(2, 'Aún no hay registros con fuente.')]),
  );
  figures($('stats-figures'), [
    ['Conversiones', num(s.stats.conversions), 'conversions'],
    ['Caracteres narrados', num(s.stats.characters_narrated), 'characters'],
    ['Horas de audio', fixed(s.stats.hours_narrated, 2), 'hours'],
    ...Object.entries(s.stats.by_format).map(([fmt, n]) => [`En ${fmt.toUpperCase()}`, num(n), `fmt-${fmt}`]),
  ]);
  figures($('failure-figures'), [
    ['Trabajos fallidos (7 días)', num(s.failures.jobs.last_7_days), 'failed-7d'],
    ['Trabajos fallidos (total)', num(s.failures.jobs.total), 'failed-total'],
  ]);
  $('dlqs').tBodies[0].replaceChildren(
    ...s.failures.dlqs.map((d) => {
      const row = el('tr', { 'data-queue': d.queue });
      row.append(el('th', { scope: 'row' }, d.queue));
      if (d.messages === null) {
        const cell = el('td', { colspan: '2', class: 'warn' }, `No se pudo leer (${d.error ?? 'error'})`);
        row.append(cell);
      } else {
        row.append(
          el(
            'td',
            { class: `num${d.messages > 0 ? ' warn' : ''}`, 'data-field': 'messages' },
            num(d.messages),
          ),
          el('td', { class: 'num', 'data-field': 'in_flight' }, num(d.in_flight)),
        );
      }
      return row;
    }),
  );
}

function emptyRow(span, text) {
  const row = el('tr');
  row.append(el('td', { colspan: String(span) }, text));
  return row;
}

let busy = false;
async function load(token) {
  if (busy) return;
  busy = true;
  const refresh = $('refresh');
  refresh.disabled = true;
  $('updated').textContent = 'Cargando…';
  try {
    const summary = await getJson('/dashboard/summary', token);
    const results = await Promise.all(
      summary.experiments.map((name) =>
        getJson(`/ab/results/${encodeURIComponent(name)}`, token).then(
          (value) => ({ ok: true, value }),
          (err) => ({ ok: false, error: err.message || `HTTP ${err.status}` }),
        ),
      ),
    );
    renderSummary(summary);
    renderExperiments(summary.experiments, results);
    sessionStorage.setItem(KEY, token);
    $('login').hidden = true;
    $('dashboard').hidden = false;
    $('logout').hidden = false;
    const at = new Date(summary.generated_at).toLocaleTimeString('es-MX');
    // es-MX times end with «a.m.»/«p.m.»: no period of our own after them.
    $('updated').textContent = `Actualizado a las ${at}`;
    return true;
  } catch (err) {
    sessionStorage.removeItem(KEY);
    $('dashboard').hidden = true;
    $('logout').hidden = true;
    $('login').hidden = false;
    const status = $('login-status');
    status.className = 'status error';
    status.textContent = loginMessage(err);
    $('token').setAttribute('aria-invalid', 'true');
    $('token').focus();
    return false;
  } finally {
    busy = false;
    refresh.disabled = false;
  }
}

$('login').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('token').value.trim();
  const status = $('login-status');
  if (!token) {
    status.className = 'status error';
    status.textContent = 'Escribe el token del panel para entrar.';
    $('token').focus();
    return;
  }
  status.className = 'status';
  status.textContent = 'Comprobando…';
  $('token').removeAttribute('aria-invalid');
  void load(token).then((ok) => {
    if (ok) {
      status.textContent = '';
      $('token').value = '';
      // Keyboard and screen-reader users land on the first result.
      $('ab-title').setAttribute('tabindex', '-1');
      $('ab-title').focus();
    }
  });
});

$('refresh').addEventListener('click', () => {
  const token = sessionStorage.getItem(KEY);
  if (token) void load(token);
});

$('logout').addEventListener('click', () => {
  sessionStorage.removeItem(KEY);
  $('dashboard').hidden = true;
  $('logout').hidden = true;
  $('login').hidden = false;
  $('login-status').className = 'status';
  $('login-status').textContent = 'Sesión cerrada.';
  $('token').focus();
});

const saved = sessionStorage.getItem(KEY);
if (saved) void load(saved);
