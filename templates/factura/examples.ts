// More factura data for tests and previews, beside the stamped sample (sample.json): an invoice not yet stamped in
// dollars with withholdings, IEPS, an exempt line and a discount (what a consultant billing a company prints), and a
// long deterministic invoice of `n` lines for pagination. No randomness: golden totals can be computed in tests.
import type { z } from 'zod';
import type { schema } from './schema';

type Input = z.input<typeof schema>;

/** Not stamped, USD with tipo de cambio; retenciones ISR 10 % and IVA two thirds; IEPS; exento; descuento. */
export const borradorUsd: Input = {
  empresa: 'Julia Pérez Garza',
  rfc_emisor: 'PEGJ8001019Q8',
  regimen_fiscal_emisor: '612',
  lugar_expedicion: '06600',
  domicilio_emisor: 'Río Lerma 232, Cuauhtémoc, 06600 Ciudad de México',
  cliente: 'Grupo Industrial del Centro, S.A. de C.V.',
  rfc_cliente: 'GIC010203AB1',
  regimen_fiscal_receptor: '601',
  domicilio_fiscal_receptor: '03100',
  uso_cfdi: 'G03',
  serie: 'H',
  folio: '57',
  fecha: '2024-04-02T09:15:00',
  moneda: 'USD',
  tipo_cambio: 17.0512,
  forma_pago: '03',
  metodo_pago: 'PUE',
  retenciones: [
    { impuesto: 'ISR', tasa_o_cuota: 0.1 },
    { impuesto: 'IVA', tasa_o_cuota: 0.106667 },
  ],
  items: [
    {
      concepto: 'Honorarios por consultoría fiscal, marzo de 2024',
      cantidad: 1,
      precio: 2500,
      unidad: 'servicio',
      clave: '80101500',
      descuento: 250,
    },
    {
      concepto: 'Bebida energética 355 ml (caja de 24)',
      cantidad: 24,
      precio: 1.25,
      unidad: 'pieza',
      clave: '50202300',
      traslados: [
        { impuesto: 'IEPS', tasa_o_cuota: 0.265 },
        { impuesto: 'IVA', tasa_o_cuota: 0.16 },
      ],
      retenciones: [],
    },
    {
      concepto: 'Libro técnico: «Código Fiscal de la Federación comentado»',
      cantidad: 2,
      precio: 35,
      unidad: 'pieza',
      clave: '55101500',
      tasa_iva: 'exento',
      retenciones: [],
    },
  ],
  notas: 'Pago en dólares a la cuenta 0123456789 de BBVA México.',
};

const PRODUCTOS = [
  'Rodamiento',
  'Banda dentada',
  'Sello mecánico',
  'Válvula',
  'Sensor inductivo',
  'Cople flexible',
];
const MODELOS = ['RX', 'TS', 'HV', 'MK'];

/** A stamped invoice (the sample's emisor, receptor and timbre) with `n` deterministic lines. */
export function largeFactura(sample: Input, n: number): Input {
  const items = Array.from({ length: n }, (_, i) => ({
    concepto: `${PRODUCTOS[i % PRODUCTOS.length]} industrial ${MODELOS[i % MODELOS.length]}-${String(100 + i)}`,
    cantidad: (i % 7) + 1,
    precio: 100 + i * 3.5,
    unidad: 'pieza',
    clave: '31171500',
    no_identificacion: `SKU-${String(5000 + i)}`,
  }));
  // The sample's own totals would not match the new lines: the caller sends none.
  const { subtotal: _s, total_impuestos_trasladados: _t, total: _x, ...rest } = sample;
  void _s;
  void _t;
  void _x;
  return { ...rest, folio: '1025', items };
}

/** A brand for previews and tests (options.marca): an SVG logo of a made-up school, its green, notes and a legend. */
export const marcaEjemplo = {
  logo: `data:image/svg+xml;base64,${Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80" width="240" height="80">' +
      '<rect width="80" height="80" rx="16" fill="#0b6e4f"/><path d="M20 58 L40 20 L60 58 Z" fill="#f4d35e"/>' +
      '<text x="94" y="38" font-family="Noto Sans" font-size="24" font-weight="700" fill="#0b6e4f">KEMPER</text>' +
      '<text x="94" y="64" font-family="Noto Sans" font-size="14" fill="#52606d">Escuela de robótica</text></svg>',
    'utf8',
  ).toString('base64')}`,
  color: '#0b6e4f',
  notas: 'Gracias por su preferencia.',
  leyenda_pie: 'www.kemper.example · Servicio de fletes certificado',
};
