// Section 4 of the documents playground: a month of CFDI at once. A zip of stamped XML goes straight to the bucket
// through the batch API (POST /v1/batches/upload's presigned POST, then POST /v1/batches), and the page follows the
// batch (GET /v1/batches/{id}) with a progress bar until its result zip is offered; a failed batch shows the API's
// reason (in Spanish: the page asks for it).
import { getBatch, startZipBatch } from './api.js';
import { $, failureParts, sizeText } from './dom.js';

const BATCH_STATUS = {
  queued: 'En cola: leyendo el zip…',
  rendering: 'Imprimiendo',
};

/** The batch's state in words, and its progress bar. */
function showBatch(batch) {
  const bar = $('progreso-lote');
  bar.hidden = false;
  bar.value = batch.progress ?? 0;
  const processed = (batch.done ?? 0) + (batch.failed ?? 0);
  const counts = batch.total === null ? '' : `: ${processed} de ${batch.total} CFDI`;
  const eta = batch.eta_s ? ` (faltan unos ${batch.eta_s} s)` : '';
  if (batch.status === 'done') {
    bar.value = 1;
    const refused = batch.refused ? `, ${batch.refused} rechazados (ver resumen.xlsx)` : '';
    $('estado-lote').textContent =
      `Listo: ${batch.done} PDF${batch.failed ? `, ${batch.failed} con falla` : ''}${refused}.`;
    const link = $('enlace-lote');
    link.href = batch.download_url;
    link.textContent = `Descargar ${batch.filename} (${sizeText(batch.bytes)})`;
    $('descarga-lote').hidden = false;
  } else if (batch.status === 'failed') {
    $('estado-lote').textContent = 'El lote no se procesó.';
    $('error-lote').replaceChildren(
      ...failureParts({
        title: 'La API rechazó el lote',
        explanation: 'Revisa el zip y vuelve a subirlo; no se cobró nada.',
        detail: batch.reason,
      }),
    );
  } else {
    $('estado-lote').textContent = `${BATCH_STATUS[batch.status] ?? batch.status}${counts}${eta}`;
  }
}

/**
 * Wires section 4's form: the zip goes to the bucket through the batch API's upload slot, then the batch is followed
 * at its Retry-After until its result zip is offered. `key` reads the optional API key.
 */
export function setUpBatch({ key: readKey }) {
  const button = $('subir-lote');
  $('form-lote').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (button.getAttribute('aria-disabled') === 'true') return;
    const file = $('zip-lote').files[0];
    $('error-lote').replaceChildren();
    $('descarga-lote').hidden = true;
    if (!file) {
      $('estado-lote').textContent = 'Elige primero un zip con tus XML.';
      $('zip-lote').focus();
      return;
    }
    const key = readKey();
    button.setAttribute('aria-disabled', 'true');
    $('estado-lote').textContent = `Subiendo ${file.name} (${sizeText(file.size)})…`;
    try {
      let answer = await startZipBatch(file, key);
      while (answer.ok) {
        showBatch(answer.batch);
        if (answer.batch.status === 'done' || answer.batch.status === 'failed') return;
        await new Promise((r) => setTimeout(r, Math.min(2, answer.retryAfterS || 1) * 1000));
        answer = await getBatch(answer.batch.id, key);
      }
      $('estado-lote').textContent = `No se procesó el lote: ${answer.title.toLowerCase()}.`;
      $('error-lote').replaceChildren(...failureParts(answer));
    } finally {
      button.removeAttribute('aria-disabled');
    }
  });
}
