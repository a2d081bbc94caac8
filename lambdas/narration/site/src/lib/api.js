// The site's calls to its own API (same origin) and the Spanish messages for what they answer.
// Every call asks for Spanish (Accept-Language), so the API's own `detail` — the specific reason — comes in Spanish
// and the page shows it under its message.

/**
 * @typedef {{ ok: boolean, status: number, body: any, retryAfter: number | null }} Answer
 * @typedef {{ message: string, detail: string }} Problem
 */

/**
 * fetch() of a same-origin path; the body parsed as JSON when it is JSON. Never throws: a network failure is
 * status 0.
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<Answer>}
 */
export async function call(path, init) {
  let res;
  try {
    res = await fetch(path, {
      credentials: 'omit',
      ...init,
      headers: { 'accept-language': SPANISH, ...init?.headers },
    });
  } catch {
    return { ok: false, status: 0, body: null, retryAfter: null };
  }
  let body = null;
  if ((res.headers.get('content-type') || '').includes('json')) {
    try {
      body = await res.json();
    } catch {
      body = null;
    }
  }
  const retry = Number(res.headers.get('retry-after'));
  return {
    ok: res.ok,
    status: res.status,
    body,
    retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null,
  };
}

/** What every call of the pages says it reads: the API answers its errors in Spanish for it. */
export const SPANISH = 'es-MX, es;q=0.9';

/** @param {string} path @param {unknown} data */
export const postJson = (path, data) =>
  call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(data),
  });

/** The API's `detail` as one readable line: a string, or the 422 items as "field: message". @param {any} body */
export function detailText(body) {
  const d = body && body.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d))
    return d
      .map((i) => {
        const loc = Array.isArray(i.loc) ? i.loc.filter((p) => p !== 'body').join('.') : '';
        return (loc ? loc + ': ' : '') + (i.msg || '');
      })
      .join(' · ');
  return '';
}

/** "5 min", "1 h 10 min", "40 s". @param {number} s */
export function spanEs(s) {
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/**
 * The Spanish message for an answer that is not a success, by status; `what` names the action ("narrar el texto").
 * @param {Answer} a @param {string} what
 * @returns {Problem}
 */
export function problem(a, what) {
  const detail = detailText(a.body);
  switch (a.status) {
    case 0:
      return {
        message: 'No se pudo conectar con el servicio. Revisa tu conexión y vuelve a intentarlo.',
        detail: '',
      };
    case 400:
    case 422:
      return { message: `No se pudo ${what}.`, detail };
    case 413:
      return { message: `No se pudo ${what}: el archivo es demasiado grande (máximo 20 MB).`, detail };
    case 415:
      return { message: `No se pudo ${what}: el formato no es válido.`, detail };
    case 429:
      return {
        message:
          'Alcanzaste el límite de uso gratuito.' +
          (a.retryAfter
            ? ` Podrás intentarlo de nuevo en ${spanEs(a.retryAfter)}.`
            : ' Inténtalo más tarde.') +
          ' Con Pro no hay límites.',
        detail,
      };
    default:
      if (a.status >= 500)
        return {
          message: `No se pudo ${what}: el servicio no está disponible ahora mismo. Inténtalo de nuevo en unos minutos.`,
          detail,
        };
      return { message: `No se pudo ${what} (error ${a.status}).`, detail };
  }
}

/**
 * Shows a problem in an alert element (always in the page, empty when there is nothing to say, so screen readers
 * announce each change): the Spanish message, and the API's detail (the specific reason) underneath.
 * @param {HTMLElement} el @param {Problem | null} p
 */
export function showProblem(el, p) {
  el.textContent = '';
  if (!p) return;
  // On a phone the message may sit below the screen: bring it into view (role="alert" announces it).
  requestAnimationFrame(() => el.scrollIntoView({ block: 'nearest' }));
  const strong = document.createElement('strong');
  strong.textContent = p.message;
  el.append(strong);
  if (p.detail) {
    const small = document.createElement('small');
    small.textContent = p.detail;
    el.append(small);
  }
}

/** @param {string} sel @returns {any} */
export const $ = (sel) => document.querySelector(sel);

/** @param {number} n */
export const numberEs = (n) => new Intl.NumberFormat('es-MX').format(n);
