// The playground's calls to the documents API (same origin): GET /templates, POST /v1/render and the batch API
// (POST /v1/batches/upload, the zip sent to its presigned POST, POST /v1/batches, GET /v1/batches/{id}), and what an
// answer means for a person, in Spanish. The API's own detail (English, the contract's `{"detail": ...}`) is kept
// beside the explanation so developers see exactly what their code would get.
import { jsonPath } from './validate.js';

/** What the playground's calls say they read: the API answers its errors in Spanish for it. */
const SPANISH = 'es-MX, es;q=0.9';

/** The ten formats of the contract, in the order the picker shows them. */
export const FORMATS = [
  ['pdf', 'PDF (vista previa aquí)'],
  ['png', 'PNG, imagen (vista previa aquí)'],
  ['html', 'HTML, página web'],
  ['docx', 'DOCX, Word'],
  ['xlsx', 'XLSX, Excel'],
  ['csv', 'CSV, valores separados por comas'],
  ['md', 'Markdown'],
  ['txt', 'Texto plano'],
  ['json', 'JSON, los datos'],
  ['zip', 'ZIP, todos los formatos juntos'],
];

/** GET /templates: `{templates: [{slug, title, purpose, formats, fields, sample, ...}], custom_html_formats}`. */
export async function loadTemplates() {
  const res = await fetch('/templates', {
    headers: { accept: 'application/json', 'accept-language': SPANISH },
  });
  if (!res.ok) throw new Error(`GET /templates respondió ${res.status}`);
  return res.json();
}

/** GET /pricing: `{currency, quota_reset, plans: [{id, name, price_usd, billing, documents_per_month, scope, checkout}]}`. */
export async function loadPricing() {
  const res = await fetch('/pricing', {
    headers: { accept: 'application/json', 'accept-language': SPANISH },
  });
  if (!res.ok) throw new Error(`GET /pricing respondió ${res.status}`);
  return res.json();
}

const BILLING = { monthly: 'al mes', once: 'una vez' };
const SCOPE = { ip: 'por dirección IP', account: 'por cuenta' };

/** A plan's price as the page says it: "$9 al mes", "$49 una vez", "$12.50 al mes". */
export function priceText(plan) {
  const amount = plan.price_usd.toLocaleString('en-US', {
    minimumFractionDigits: Number.isInteger(plan.price_usd) ? 0 : 2,
  });
  return `$${amount} ${BILLING[plan.billing] ?? ''}`.trim();
}

/** A plan's allowance: "50 documentos al mes por dirección IP". */
export function allowanceText(plan) {
  return `${plan.documents_per_month.toLocaleString('es-MX')} documentos al mes ${SCOPE[plan.scope] ?? ''}`.trim();
}

function filenameOf(res, format) {
  const cd = res.headers.get('content-disposition') || '';
  const m = /filename="([^"]+)"/.exec(cd);
  return m ? m[1] : `documento.${format}`;
}

/**
 * POST /v1/render. Resolves `{ok: true, blob, type, filename, remaining, limit, warnings}` or
 * `{ok: false, status, title, explanation, items, detail}`; network failures are `{ok: false, status: 0, ...}`.
 */
export async function render(body, key) {
  const headers = { 'content-type': 'application/json', accept: '*/*', 'accept-language': SPANISH };
  if (key) headers.authorization = `Bearer ${key}`;
  let res;
  try {
    // A document over 4 MiB is answered 303 to a presigned storage URL, which this page's CSP does not reach:
    // `manual` lets the page say so instead of failing with a network error.
    res = await fetch('/v1/render', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  } catch {
    return {
      ok: false,
      status: 0,
      title: 'No se pudo conectar con la API',
      explanation: 'Revisa tu conexión y vuelve a intentarlo.',
    };
  }
  if (res.type === 'opaqueredirect' || res.status === 303)
    return {
      ok: false,
      status: 303,
      title: 'El documento es demasiado grande para verlo aquí',
      explanation:
        'Pesa más de 4 MiB, así que la API lo entrega con una redirección (303) a un enlace temporal. ' +
        'Pídelo desde tu código o con curl -L.',
    };
  if (res.ok) {
    const blob = await res.blob();
    const warnings = res.headers.get('x-cfdi-avisos');
    return {
      ok: true,
      blob,
      type: (res.headers.get('content-type') || blob.type).split(';')[0].trim(),
      filename: filenameOf(res, body.format),
      remaining: res.headers.get('ratelimit-remaining'),
      limit: res.headers.get('ratelimit-limit'),
      warnings: warnings ? warnings.split('; ') : [],
    };
  }
  let detail;
  try {
    detail = (await res.json()).detail;
  } catch {
    detail = undefined;
  }
  return { ok: false, status: res.status, ...explain(res, detail) };
}

/** Where a validation item points: the data's JSON path, or the request field («format», «custom_html»). */
export function locText(loc) {
  const rest = loc[0] === 'body' ? loc.slice(1) : loc;
  if (rest[0] === 'data') return jsonPath(rest.slice(1));
  return rest.length ? `«${rest.join('.')}»` : 'la solicitud';
}

function explain(res, detail) {
  const items = Array.isArray(detail) ? detail : undefined;
  const text = typeof detail === 'string' ? detail : undefined;
  const retry = Number(res.headers.get('retry-after'));
  const base = { detail: text, items };
  switch (res.status) {
    case 400:
    case 422:
      return {
        ...base,
        title: 'La API rechazó los datos',
        explanation: 'Corrige lo que se indica abajo y vuelve a generar.',
      };
    case 401:
      return {
        ...base,
        title: 'La clave no es válida',
        explanation:
          'Revisa que la copiaste completa, o borra el campo «Clave de la API» para usar el plan gratuito.',
      };
    case 402:
      return {
        ...base,
        title: 'Tu suscripción no está activa',
        explanation:
          'Esta clave ya no tiene acceso de pago. Actualiza tu forma de pago en el portal de facturación, o borra la clave para usar el plan gratuito.',
      };
    case 403:
      return {
        ...base,
        title: 'Tu plan no incluye esto',
        explanation:
          'El HTML propio es de los planes Pro, Scale y Lifetime: escribe una clave de pago en «Clave de la API», o usa una plantilla incluida.',
      };
    case 413:
      return { ...base, title: 'La solicitud es demasiado grande', explanation: 'El límite es de 2 MiB.' };
    case 429: {
      const days = retry > 0 ? Math.ceil(retry / 86400) : 0;
      return {
        ...base,
        title: 'Llegaste al límite de documentos de este mes',
        explanation:
          (days ? `Se renueva en ${days === 1 ? '1 día' : `${days} días`}. ` : '') +
          'Un plan de pago te da más documentos al mes.',
      };
    }
    default: {
      const id = res.headers.get('x-request-id');
      return {
        ...base,
        title: `No se pudo generar el documento (${res.status})`,
        explanation:
          'Vuelve a intentarlo en un momento.' +
          (id ? ` Si se repite, escríbenos con este identificador: ${id}.` : ''),
      };
    }
  }
}

// ── Batches: a zip of stamped CFDI ──────────────────────────────────────────────────────────────────────────

function authHeaders(key, json) {
  const headers = { accept: 'application/json', 'accept-language': SPANISH };
  if (json) headers['content-type'] = 'application/json';
  if (key) headers.authorization = `Bearer ${key}`;
  return headers;
}

/** An API answer that is not 2xx, as the page shows it: the API's own (Spanish) detail beside a title. */
async function batchFailure(res, title) {
  let detail;
  try {
    detail = (await res.json()).detail;
  } catch {
    detail = undefined;
  }
  const items = Array.isArray(detail) ? detail : undefined;
  const explanation =
    res.status === 401
      ? 'Revisa la clave del paso 2, o bórrala para usar el plan gratuito.'
      : res.status === 429
        ? 'Un plan de pago te da más documentos al mes.'
        : res.status >= 500
          ? 'Vuelve a intentarlo en un momento.'
          : 'Revisa lo que dice la API y vuelve a intentarlo.';
  return { ok: false, status: res.status, title, explanation, items, detail: items ? undefined : detail };
}

const OFFLINE = {
  ok: false,
  status: 0,
  title: 'No se pudo conectar con la API',
  explanation: 'Revisa tu conexión y vuelve a intentarlo.',
};

/**
 * A zip through the batch API: an upload slot (POST /v1/batches/upload), the file sent to its presigned POST
 * (straight to storage), then POST /v1/batches {upload_id}. Resolves `{ok: true, batch}` (the 202's body) or a
 * failure as render()'s.
 */
export async function startZipBatch(file, key) {
  try {
    const slot = await fetch('/v1/batches/upload', {
      method: 'POST',
      headers: authHeaders(key, true),
      body: '{}',
    });
    if (!slot.ok) return batchFailure(slot, 'No se pudo preparar la subida');
    const { upload_id: uploadId, upload, max_bytes: maxBytes } = await slot.json();
    if (file.size > maxBytes)
      return {
        ok: false,
        status: 413,
        title: 'El zip es demasiado grande para tu plan',
        explanation: `Pesa ${file.size.toLocaleString('es-MX')} bytes; tu plan admite hasta ${maxBytes.toLocaleString('es-MX')}.`,
      };
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append(upload.file_field, file, file.name);
    const sent = await fetch(upload.url, { method: upload.method, body: form });
    if (!sent.ok)
      return {
        ok: false,
        status: sent.status,
        title: 'No se pudo subir el zip',
        explanation: `El almacenamiento respondió ${sent.status}. Vuelve a intentarlo.`,
      };
    const started = await fetch('/v1/batches', {
      method: 'POST',
      headers: authHeaders(key, true),
      body: JSON.stringify({ upload_id: uploadId }),
    });
    if (started.status !== 202) return batchFailure(started, 'La API no aceptó el lote');
    return { ok: true, batch: await started.json() };
  } catch {
    return OFFLINE;
  }
}

/** GET /v1/batches/{id}: `{ok: true, batch, retryAfterS}` or a failure. */
export async function getBatch(id, key) {
  try {
    const res = await fetch(`/v1/batches/${encodeURIComponent(id)}`, { headers: authHeaders(key, false) });
    if (!res.ok) return batchFailure(res, 'No se pudo consultar el lote');
    return { ok: true, batch: await res.json(), retryAfterS: Number(res.headers.get('retry-after')) || 0 };
  } catch {
    return OFFLINE;
  }
}
