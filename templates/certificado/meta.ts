// certificado: certificate of completion, landscape, exactly one page in A4 and in Letter. The frame is
// position: fixed in print (it fills the page box whatever the page size), and long names or course titles step
// down in size (classes computed here from their length) so nothing ever spills onto a second page. The
// verification QR is SVG drawn here, server-side.
import { qrSvg } from '../kit/qr';
import { defineTemplate } from '../kit/template-types';
import { schema, type CertificadoData } from './schema';
import sample from './sample.json';

/** A size step for a text by its length: 'xl' for short texts down to 'xs' for the longest allowed. */
function talla(text: string, limits: [number, number, number, number]): 'xl' | 'l' | 'm' | 's' | 'xs' {
  const n = [...text].length;
  return n <= limits[0] ? 'xl' : n <= limits[1] ? 'l' : n <= limits[2] ? 'm' : n <= limits[3] ? 's' : 'xs';
}

/** Long URLs print shortened in the middle (the QR carries the whole URL). */
function acortar(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) * 0.6);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}

function horasTexto(horas: number): string {
  const n = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 }).format(horas);
  return `${n} ${horas === 1 ? 'hora' : 'horas'}`;
}

export function calcCertificado(data: CertificadoData) {
  const firmantes = data.firmantes ?? [{ nombre: '', cargo: data.emisor }];
  const url = data.url_verificacion;
  const tallas = {
    talla_nombre: talla(data.nombre, [30, 44, 70, 120]),
    talla_curso: talla(data.curso, [50, 90, 150, 220]),
    talla_texto: talla(data.descripcion ?? '', [160, 300, 450, 600]),
    talla_emisor: talla(data.emisor, [60, 80, 110, 160]),
  };
  const larga = (t: string) => t === 's' || t === 'xs';
  return {
    horas_texto: data.horas === undefined ? null : horasTexto(data.horas),
    ...tallas,
    /** Several long texts at once: a tighter vertical rhythm (template's .compacto). */
    compacto:
      larga(tallas.talla_nombre) ||
      larga(tallas.talla_curso) ||
      larga(tallas.talla_emisor) ||
      (tallas.talla_texto !== 'xl' && tallas.talla_texto !== 'l'),
    firmantes,
    n_firmantes: firmantes.length,
    qr_svg: url ? qrSvg(url, { level: 'M', label: `Verificación: ${url}` }) : null,
    url_visible: url ? acortar(url.replace(/^https?:\/\//, '').replace(/\/$/, ''), 72) : null,
  };
}

export const certificado = defineTemplate({
  meta: {
    slug: 'certificado',
    title: 'Certificado',
    purpose: 'Certificado o constancia de conclusión de curso, con código QR de verificación',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'A4', landscape: true, margin: '10mm' },
  },
  schema,
  sample: sample as CertificadoData,
  view: (data) => ({ ...data, color_acento: data.color, calc: calcCertificado(data) }),
  title: (data) => `${data.titulo} — ${data.nombre}`,
});
