// The narration site's page (/): try it (text, article URL, PDF → the embed player with the text following along),
// voices with samples, pricing (an A/B experiment), waitlist, live figures. Bundled by scripts/build-site.ts.
import { $, call, numberEs, postJson, problem, showProblem, spanEs } from './lib/api.js';

/** The pricing experiment (AB_EXPERIMENTS): variants `mensual` (control, Pro first) and `vitalicio`. */
const EXPERIMENT = 'precios';
const VISITOR_KEY = 'voz-visitante';
/** Longest the page waits for a queued narration's timings before playing without the text. */
const TIMINGS_WAIT_MS = 10 * 60 * 1000;
/** The free demo's limit (POST /demo/try); a longer text goes to POST /convert/text, up to the contract's limit. */
const DEMO_MAX_CHARS = 500;
const TEXT_MAX_CHARS = 100_000;
/** Characters as the API counts them (code points). @param {string} s */
const charCount = (s) => [...s].length;

document.documentElement.classList.add('js');

// ─── Live figures: GET /stats, GET /waitlist/count, GET /pay/status (free tier left for this IP) ───────────────

async function loadStats() {
  const a = await call('/stats');
  if (!a.ok || !a.body) return;
  $('#cifra-narraciones').textContent = numberEs(a.body.conversions);
  $('#cifra-horas').textContent = numberEs(a.body.hours_narrated);
  $('#cifra-lista').textContent = numberEs(a.body.waitlist);
}

async function loadWaitlistCount() {
  // no-cache: revalidate (the answer may be cached for 10 s), so a sign-up shows at once.
  const a = await call('/waitlist/count', { cache: 'no-cache' });
  if (!a.ok || !a.body) return;
  const n = Number(a.body.count) || 0;
  $('#lista-cuenta').textContent =
    n === 0
      ? 'Sé la primera persona de la lista.'
      : n === 1
        ? 'Ya hay 1 persona.'
        : `Ya somos ${numberEs(n)}.`;
  $('#cifra-lista').textContent = numberEs(n);
}

async function loadQuota() {
  const a = await call('/pay/status', { headers: { accept: 'application/json' } });
  if (!a.ok || !a.body) return;
  const plans = Array.isArray(a.body.plans) ? a.body.plans : [];
  for (const p of plans) showPlan(p);
  const price = (id) => plans.find((p) => p.id === id && p.price)?.price.amount_cents;
  const months = price('pro') ? Math.round((price('lifetime') || 0) / price('pro')) : 0;
  if (months > 1) $('#lifetime-meses').textContent = `Cuesta lo mismo que ${months} meses de Pro`;
  const windows = (a.body.usage && a.body.usage.windows) || [];
  const hour = windows.find((w) => w.period === 'hour');
  const day = windows.find((w) => w.period === 'day');
  if (!hour || !day) {
    $('#cuota').textContent = '';
    return;
  }
  let text =
    `Cuota gratuita para artículos y PDF: te quedan ${hour.remaining} de ${hour.limit} narraciones esta hora ` +
    `y ${day.remaining} de ${day.limit} hoy.`;
  const empty = hour.remaining === 0 ? hour : day.remaining === 0 ? day : null;
  if (empty) text += ` Se renueva en ${spanEs(empty.reset_in_s)}.`;
  $('#cuota').textContent = text;
}

/** Prices and limits as the API states them (GET /pay/status plans). */
function showPlan(p) {
  const money = (cents, currency) =>
    new Intl.NumberFormat('es-MX', {
      style: 'currency',
      currency: currency.toUpperCase(),
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: cents % 100 ? 2 : 0,
    }).format(cents / 100);
  if (p.id === 'free' && p.limits)
    $('#free-limites').textContent = `${p.limits.per_hour} narraciones por hora y ${p.limits.per_day} al día`;
  if ((p.id === 'pro' || p.id === 'lifetime') && p.price) {
    $(`#precio-${p.id}`).textContent = money(p.price.amount_cents, p.price.currency);
  }
}

// ─── Voices: GET /voices; a sample per voice made on demand with POST /demo/try ──────────────────────────────────

/** @type {Map<string, string>} voice id → audio path of its sample (this page view only) */
const samples = new Map();

async function loadVoices() {
  const a = await call('/voices');
  if (!a.ok || !Array.isArray(a.body)) {
    showProblem($('#voces-error'), problem(a, 'cargar las voces'));
    return;
  }
  const select = $('#voz');
  const list = $('#lista-voces');
  for (const v of a.body) {
    const country = v.lang === 'es-MX' ? 'México' : v.lang === 'es-ES' ? 'España' : v.lang;
    const name = String(v.name).replace(/\s*\(.*\)\s*$/, '');
    const option = document.createElement('option');
    option.value = v.id;
    option.textContent = `${name} (${country})`;
    select.append(option);

    const li = document.createElement('li');
    li.className = 'voz';
    const h = document.createElement('h3');
    h.textContent = name;
    const p = document.createElement('p');
    p.textContent = `${country} · ${v.gender === 'male' ? 'voz masculina' : 'voz femenina'}`;
    const listen = document.createElement('button');
    listen.type = 'button';
    listen.className = 'secundario';
    listen.textContent = 'Escuchar muestra';
    listen.setAttribute('aria-label', `Escuchar muestra de ${name} (${country})`);
    listen.addEventListener('click', () => playSample(v.id, name, listen));
    const use = document.createElement('button');
    use.type = 'button';
    use.textContent = 'Usar esta voz';
    use.setAttribute('aria-label', `Usar la voz ${name} (${country})`);
    use.addEventListener('click', () => {
      select.value = v.id;
      $('#voces-estado').textContent = `Elegiste la voz ${name}.`;
      location.hash = '#pruebalo';
      select.focus();
    });
    li.append(h, p, listen, use);
    list.append(li);
  }
}

async function playSample(id, name, button) {
  const status = $('#voces-estado');
  showProblem($('#voces-error'), null);
  let path = samples.get(id);
  if (!path) {
    button.disabled = true;
    status.textContent = `Preparando la muestra de ${name}…`;
    const a = await postJson('/demo/try', {
      text: `Hola, soy ${name}. Así sueno cuando leo tus textos, tus artículos y tus documentos.`,
      voice: id,
    });
    button.disabled = false;
    if (!a.ok || !a.body || !a.body.audio_id) {
      status.textContent = '';
      showProblem($('#voces-error'), problem(a, 'preparar la muestra'));
      return;
    }
    path = `/audio/${encodeURIComponent(a.body.audio_id)}.mp3`;
    samples.set(id, path);
  }
  const audio = $('#muestra');
  audio.src = path;
  status.textContent = `Reproduciendo la muestra de ${name}.`;
  audio.play().catch(() => {
    status.textContent = '';
    showProblem($('#voces-error'), { message: 'No se pudo reproducir la muestra.', detail: '' });
  });
}

// ─── Try it: text (POST /demo/try), URL (POST /convert/url), PDF (POST /convert/pdf) ─────────────────────────────

const forms = ['#forma-texto', '#forma-url', '#forma-pdf'].map((s) => $(s));

function busy(on) {
  for (const f of forms) {
    f.setAttribute('aria-busy', on ? 'true' : 'false');
    f.querySelector('button[type=submit]').disabled = on;
  }
}

const voice = () => $('#voz').value || undefined;

/** A conversion request: shows progress and errors, then the player with the narrated text. */
async function narrate(what, request, textOf) {
  const status = $('#estado');
  const error = $('#error');
  showProblem(error, null);
  status.textContent = 'Generando el audio…';
  busy(true);
  try {
    const a = await request();
    if (!a.ok || !a.body || !a.body.audio_id) {
      status.textContent = '';
      showProblem(error, problem(a, what));
      return;
    }
    const result = a.body;
    const text = await textOf(result);
    showResult(result, text);
    status.textContent =
      a.status === 202
        ? 'Tu audio se está preparando: pulsa reproducir y empieza a sonar mientras se hace el resto.'
        : 'Tu audio está listo: pulsa reproducir.';
  } finally {
    busy(false);
    loadQuota();
  }
}

/** Puts the embed player (GET /embed.js, same origin) for `result` on the page, following `text`. */
function showResult(result, text) {
  const box = $('#resultado');
  const narrated = $('#texto-narrado');
  const holder = $('#reproductor');
  holder.textContent = '';
  for (const s of document.querySelectorAll('script[data-voz]')) s.remove();
  narrated.textContent = text || '';
  $('#resultado-titulo').textContent = result.title || 'Tu audio';
  box.hidden = false;
  const tag = document.createElement('script');
  tag.src = '/embed.js';
  tag.dataset.audioId = result.audio_id;
  tag.dataset.target = '#reproductor';
  tag.dataset.title = result.title || 'Escuchar tu audio';
  if (text) {
    tag.dataset.follow = '#texto-narrado';
    tag.dataset.scroll = 'on';
  }
  holder.append(tag);
  box.scrollIntoView({ block: 'nearest' });
}

/**
 * The narrated text of an article or PDF (the API does not send it back): the sentences' own text from
 * GET /audio/{id}/timings?format=vtt placed at their offsets from the JSON timings, so the player's offsets land
 * on the same characters. Between sentences: a space, or line breaks where the source had more than one character
 * (paragraphs). Waits (bounded) while the job is still being made.
 */
async function narratedText(result) {
  const id = encodeURIComponent(result.audio_id);
  const deadline = Date.now() + TIMINGS_WAIT_MS;
  let t = await call(`/audio/${id}/timings`);
  while (t.status === 202 && Date.now() < deadline) {
    const p = t.body && Number(t.body.progress);
    $('#estado').textContent = `Preparando el audio${p ? ` (${Math.round(p * 100)} %)` : ''}…`;
    await new Promise((r) => setTimeout(r, Math.min(5, Math.max(1, t.retryAfter || 2)) * 1000));
    t = await call(`/audio/${id}/timings`);
  }
  if (!t.ok || !t.body || !Array.isArray(t.body.sentences)) return '';
  let vtt;
  try {
    const res = await fetch(`/audio/${id}/timings?format=vtt`, { credentials: 'omit' });
    if (!res.ok) return '';
    vtt = await res.text();
  } catch {
    return '';
  }
  const cues = vtt
    .split(/\n\n+/)
    .slice(1)
    .map((block) => block.split('\n').slice(2).join(' '))
    .map((c) => c.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
  let out = '';
  t.body.sentences.forEach((s, i) => {
    const gap = s.start - out.length;
    if (gap > 0) out += gap === 1 ? ' ' : '\n'.repeat(gap);
    const span = Math.max(0, s.end - s.start);
    out += (cues[i] || '').slice(0, span).padEnd(span, ' ');
  });
  // As long as the narrated text (its `chars`), so the player maps offsets one to one.
  return out.padEnd(Number(result.chars) || 0, ' ');
}

$('#forma-texto').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('#texto').value;
  if (!text.trim()) {
    showProblem($('#error'), { message: 'Escribe o pega un texto para escucharlo.', detail: '' });
    $('#texto').focus({ preventScroll: true });
    return;
  }
  const n = charCount(text);
  if (n > TEXT_MAX_CHARS) {
    // Said before anything is sent or cut: the visitor decides what to keep.
    showProblem($('#error'), {
      message: `Tu texto tiene ${numberEs(n)} caracteres; se pueden narrar hasta ${numberEs(TEXT_MAX_CHARS)} a la vez.`,
      detail: 'Divídelo en partes (por ejemplo, por capítulo) y narra cada una.',
    });
    $('#texto').focus({ preventScroll: true });
    return;
  }
  // Up to 500 characters: the free demo. Longer: POST /convert/text on the free quota, answered as soon as it is
  // queued (Prefer: respond-async), so the player starts on the first parts while the rest is made.
  narrate(
    'narrar el texto',
    () =>
      n <= DEMO_MAX_CHARS
        ? postJson('/demo/try', { text, voice: voice() })
        : call('/convert/text', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json',
              prefer: 'respond-async',
            },
            body: JSON.stringify({ text, voice: voice() }),
          }),
    async () => text,
  );
});

$('#forma-url').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('#url').value.trim();
  if (!url) {
    showProblem($('#error'), {
      message: 'Escribe la dirección del artículo (empieza con https://).',
      detail: '',
    });
    $('#url').focus({ preventScroll: true });
    return;
  }
  narrate('narrar el artículo', () => postJson('/convert/url', { url, voice: voice() }), narratedText);
});

$('#forma-pdf').addEventListener('submit', (e) => {
  e.preventDefault();
  const file = $('#pdf').files[0];
  if (!file) {
    showProblem($('#error'), { message: 'Elige un archivo PDF o arrástralo al recuadro.', detail: '' });
    $('#pdf').focus({ preventScroll: true });
    return;
  }
  const body = new FormData();
  body.append('file', file);
  const v = voice();
  if (v) body.append('voice', v);
  narrate(
    'narrar el PDF',
    () => call('/convert/pdf', { method: 'POST', headers: { accept: 'application/json' }, body }),
    narratedText,
  );
});

// The chosen file's name next to the Spanish "Elegir PDF…" button (the native picker is hidden).
const showPdfName = () => {
  const file = $('#pdf').files[0];
  $('#pdf-nombre').textContent = file ? file.name : 'Ningún archivo elegido.';
};
$('#pdf').addEventListener('change', showPdfName);

// Drop a PDF on its box.
const zone = $('#zona-pdf');
zone.addEventListener('dragover', (e) => {
  e.preventDefault();
  zone.classList.add('encima');
});
zone.addEventListener('dragleave', () => zone.classList.remove('encima'));
zone.addEventListener('drop', (e) => {
  e.preventDefault();
  zone.classList.remove('encima');
  if (e.dataTransfer && e.dataTransfer.files.length) {
    $('#pdf').files = e.dataTransfer.files;
    showPdfName();
    $('#forma-pdf').requestSubmit();
  }
});

/** The counter says which way the text will go, before anything is sent. */
function countText() {
  const n = charCount($('#texto').value);
  $('#texto-cuenta').textContent =
    n <= DEMO_MAX_CHARS
      ? `${numberEs(n)} de ${DEMO_MAX_CHARS} caracteres gratis.`
      : n <= TEXT_MAX_CHARS
        ? `${numberEs(n)} caracteres: más de ${DEMO_MAX_CHARS}, así que se narra con tu cuota gratuita (hasta ${numberEs(TEXT_MAX_CHARS)}). Empieza a sonar mientras se prepara el resto.`
        : `${numberEs(n)} caracteres: el máximo es ${numberEs(TEXT_MAX_CHARS)}. Divide el texto para narrarlo.`;
}
$('#texto').addEventListener('input', countText);

// ─── Pricing: an A/B experiment (GET /ab/assign, POST /ab/event); checkout links carry the ref ──────────────────

/** @type {{ visitor: string, variant: string, ref: string } | null} */
let assignment = null;

function storedVisitor() {
  try {
    return localStorage.getItem(VISITOR_KEY) || '';
  } catch {
    return '';
  }
}

async function assignPricing() {
  const known = storedVisitor();
  const a = await call(`/ab/assign/${EXPERIMENT}${known ? `?visitor=${encodeURIComponent(known)}` : ''}`);
  // No such experiment configured (404): the control layout, no events, no ref.
  if (!a.ok || !a.body || !a.body.variant) return;
  assignment = { visitor: a.body.visitor, variant: a.body.variant, ref: a.body.ref };
  try {
    localStorage.setItem(VISITOR_KEY, assignment.visitor);
  } catch {
    // Private mode: a new visitor per page view.
  }
  document.documentElement.dataset.precios = assignment.variant;
  for (const link of document.querySelectorAll('a.comprar')) {
    link.href = `/pay/checkout/${link.dataset.plan}?ref=${encodeURIComponent(assignment.ref)}`;
  }
  watchExposure();
}

/** POST /ab/event as a form (sendBeacon survives the navigation to checkout). */
function abEvent(type) {
  if (!assignment) return;
  const body = new URLSearchParams({
    experiment: EXPERIMENT,
    visitor: assignment.visitor,
    variant: assignment.variant,
    type,
  });
  if (!(navigator.sendBeacon && navigator.sendBeacon('/ab/event', body)))
    call('/ab/event', { method: 'POST', body, keepalive: true });
}

/** Exposure once the pricing is on screen: half of a plan's card in view. */
function watchExposure() {
  if (!('IntersectionObserver' in window)) return abEvent('exposure');
  const seen = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        seen.disconnect();
        abEvent('exposure');
      }
    },
    { threshold: 0.5 },
  );
  for (const plan of document.querySelectorAll('.plan')) seen.observe(plan);
}

// A plain click asks for the checkout as JSON first, so a failure (payments not configured, Stripe down) is
// explained on the page instead of leaving the visitor on a JSON error; then it goes to Stripe's page. Opening the
// link in a new tab still works as a plain link (the API redirects browsers).
for (const link of document.querySelectorAll('a.comprar')) {
  link.addEventListener('click', async (e) => {
    abEvent('conversion');
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const error = $('#precios-error');
    showProblem(error, null);
    link.setAttribute('aria-busy', 'true');
    const a = await call(link.getAttribute('href'), { headers: { accept: 'application/json' } });
    link.removeAttribute('aria-busy');
    if (a.ok && a.body && typeof a.body.url === 'string') {
      location.assign(a.body.url);
      return;
    }
    showProblem(error, problem(a, 'abrir la página de pago'));
  });
}

// ─── Waitlist: POST /waitlist {email, source, interest} ─────────────────────────────────────────────────────────

$('#forma-lista').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  const status = $('#lista-estado');
  const error = $('#lista-error');
  showProblem(error, null);
  const email = $('#correo').value.trim();
  if (!email || !$('#correo').checkValidity()) {
    showProblem(error, {
      message: 'Escribe un correo electrónico válido, por ejemplo ana@ejemplo.mx.',
      detail: '',
    });
    $('#correo').focus({ preventScroll: true });
    return;
  }
  const interest = form.querySelector('input[name=interest]:checked');
  form.querySelector('button').disabled = true;
  status.textContent = 'Enviando…';
  const a = await postJson('/waitlist', {
    email,
    source: 'sitio',
    interest: interest && interest.value ? interest.value : null,
  });
  form.querySelector('button').disabled = false;
  if (!a.ok) {
    status.textContent = '';
    showProblem(error, problem(a, 'guardar tu correo'));
    return;
  }
  status.textContent =
    a.body && a.body.status === 'already_registered'
      ? 'Ese correo ya estaba en la lista. ¡Gracias por tu interés!'
      : `¡Listo! Estás en la lista${a.body && a.body.position ? ` (lugar ${numberEs(a.body.position)})` : ''}.`;
  form.reset();
  loadWaitlistCount();
});

loadStats().then(loadWaitlistCount);
loadQuota();
loadVoices();
assignPricing();
