// /gracias: Stripe's success_url. Picks up the key once from GET /pay/success?session_id= (JSON, as the contract
// keeps it) and shows it with a copy button. The session id is then dropped from the address bar, so a reload
// or a shared screenshot of the address does not expose it.
import { $, call, problem, showProblem } from './lib/api.js';

const PLAN_NAMES = { pro: 'Pro', lifetime: 'De por vida' };
/** A payment Stripe is still confirming (409): ask again a few times. */
const PENDING_TRIES = 6;

async function pickUp() {
  const status = $('#estado');
  const error = $('#error');
  const session = new URLSearchParams(location.search).get('session_id');
  if (!session) {
    status.textContent = '';
    showProblem(error, {
      message:
        'Falta el identificador de la compra en la dirección. Abre el enlace al que te llevó la página de pago.',
      detail: '',
    });
    return;
  }
  let a;
  for (let i = 0; i < PENDING_TRIES; i++) {
    a = await call(`/pay/success?session_id=${encodeURIComponent(session)}`, {
      headers: { accept: 'application/json' },
    });
    if (a.status !== 409 || i === PENDING_TRIES - 1) break;
    status.textContent = 'Tu pago se está confirmando…';
    await new Promise((r) => setTimeout(r, 3000));
  }
  history.replaceState(null, '', location.pathname);
  if (!a.ok || !a.body) {
    status.textContent = '';
    const p = problem(a, 'recuperar tu clave');
    if (a.status === 404) p.message = 'No encontramos esa compra. Revisa el enlace o escríbenos.';
    if (a.status === 409)
      p.message = 'Tu pago todavía no se confirma. Vuelve a abrir este enlace en unos minutos.';
    showProblem(error, p);
    return;
  }
  const body = a.body;
  $('#plan').textContent = `Plan: ${PLAN_NAMES[body.plan] || body.plan}.`;
  if (body.api_key) {
    status.textContent = 'Tu clave está lista.';
    $('#clave').textContent = body.api_key;
    $('#clave-caja').hidden = false;
  } else {
    status.textContent = '';
    showProblem(error, {
      message:
        'Tu compra está confirmada, pero la clave ya se mostró antes y por seguridad no se puede ver otra vez.',
      detail: body.message || '',
    });
  }
}

$('#copiar').addEventListener('click', async () => {
  const key = $('#clave').textContent;
  const done = $('#copiado');
  try {
    await navigator.clipboard.writeText(key);
    done.textContent = 'Clave copiada al portapapeles.';
  } catch {
    // No clipboard permission: select it so Ctrl+C / Cmd+C copies it.
    const range = document.createRange();
    range.selectNodeContents($('#clave'));
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    done.textContent = 'Selecciona y copia la clave con Ctrl+C (Cmd+C en Mac).';
  }
});

pickUp();
