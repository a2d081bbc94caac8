// cotizacion: price quote / commercial proposal (Letter). The arithmetic lives in calc.ts (exact decimals); the
// validity date is the given `vigencia` or `fecha` + `dias_vigencia`. Long quotes paginate: the items table's
// header repeats on every page and each page's footer carries the folio and "Página x de y".
import { cssString } from '../kit/css-string';
import { defineTemplate } from '../kit/template-types';
import { calcCotizacion } from './calc';
import { schema, sumaDias, type CotizacionData } from './schema';
import sample from './sample.json';

export { calcCotizacion };

function vigencia(data: CotizacionData): string | undefined {
  return data.vigencia ?? (data.dias_vigencia ? sumaDias(data.fecha, data.dias_vigencia) : undefined);
}

export function viewCotizacion(data: CotizacionData) {
  const v = vigencia(data);
  const dias = v ? Math.round((Date.parse(v) - Date.parse(data.fecha)) / 86_400_000) : null;
  return {
    ...data,
    calc: {
      ...calcCotizacion(data, v),
      dias_vigencia: dias,
      pie_css: cssString(
        `Cotización${data.folio ? ` ${data.folio}` : ''} · ${data.empresa} para ${data.cliente}`,
      ),
    },
  };
}

export const cotizacion = defineTemplate({
  meta: {
    slug: 'cotizacion',
    title: 'Cotización',
    purpose: 'Cotización o propuesta comercial con descuentos, impuestos, vigencia e importe con letra',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as CotizacionData,
  view: viewCotizacion,
  title: (data) => `Cotización${data.folio ? ` ${data.folio}` : ''} — ${data.cliente}`,
});
