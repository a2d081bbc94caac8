// The playground's page helpers that more than one of its scripts uses (app.js and lib/lote.js): the element by id,
// a small element builder, a byte size in Spanish and a failure's explanation as page elements.
import { locText } from './api.js';

export const $ = (id) => document.getElementById(id);

/** A size in bytes as a person reads it, in Spanish (decimal comma): 512 B, 35,2 KB, 1,4 MB. */
export function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace('.', ',')} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`;
}

/** An element with its properties (attributes when it has no such property) and children. */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else if (k in node && k !== 'lang') node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

/** A failure's explanation, its validation items and the API's own words, as page elements. */
export function failureParts(failure) {
  const parts = [
    el('p', { className: 'titulo-error', text: failure.title }),
    el('p', { text: failure.explanation }),
  ];
  if (failure.items && failure.items.length)
    parts.push(
      el(
        'ul',
        {},
        failure.items.map((i) =>
          el('li', {}, [el('code', { text: locText(i.loc || []) }), ' ', el('span', { text: i.msg })]),
        ),
      ),
    );
  if (failure.detail)
    parts.push(
      el('p', { className: 'detalle' }, [
        failure.status ? `Respuesta de la API (${failure.status}): ` : 'Motivo que da la API: ',
        el('span', { text: failure.detail }),
      ]),
    );
  return parts;
}
