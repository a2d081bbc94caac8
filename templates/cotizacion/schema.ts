// Data of the `cotizacion` template: a price quote or commercial proposal. Discounts per line and overall, as a
// fraction (0.10 = 10 %) or as an amount; IVA 16 %, 8 % or 0 %; optional retenciones (IVA, ISR); validity as a date
// or as a number of days from the quote's date. Problems are 400s on their own field, with English messages (the
// API's error language) that name the fix; field descriptions stay Spanish for the end users of the JSON Schema.
import { z } from 'zod';
import { dec, roundMoney, sum, type Dec } from '../kit/money';
import { customIssue, fecha, moneda, rfc, texto, textoOpcional } from '../kit/schema-helpers';

const fraccion = (description: string, max = 1) => z.number().finite().min(0).max(max).describe(description);
const monto = (description: string) => z.number().finite().nonnegative().describe(description);

export const item = z
  .object({
    concepto: texto('Producto o servicio cotizado', 1000),
    descripcion: textoOpcional('Detalle bajo el concepto (modelo, alcance, especificaciones)', 2000),
    clave: textoOpcional('Clave o SKU del producto', 40),
    unidad: textoOpcional('Unidad de medida, p. ej. "pieza", "servicio", "hora"', 40),
    cantidad: z.number().finite().positive().describe('Cantidad'),
    precio: z.number().finite().nonnegative().describe('Precio unitario antes de impuestos'),
    descuento: fraccion('Descuento de la partida como fracción del importe (0.10 = 10 %)').default(0),
    descuento_monto: monto('Descuento de la partida como importe fijo (en lugar de `descuento`)').optional(),
  })
  .describe('Partida cotizada');

type Item = z.output<typeof item>;

/** A line's gross amount, its discount and its net amount. */
export function partida(it: Item, moneda: string): { bruto: Dec; descuento: Dec; importe: Dec } {
  const bruto = roundMoney(dec(it.cantidad).times(dec(it.precio)), moneda);
  const descuento =
    it.descuento_monto !== undefined
      ? roundMoney(dec(it.descuento_monto), moneda)
      : roundMoney(bruto.times(dec(it.descuento)), moneda);
  return { bruto, descuento, importe: bruto.minus(descuento) };
}

const firmante = z.object({
  nombre: texto('Nombre de quien firma por la empresa', 120),
  cargo: textoOpcional('Cargo', 120),
});

/** How to reach the company and the client alike. */
const contacto = {
  direccion: textoOpcional('Domicilio', 300),
  telefono: textoOpcional('Teléfono', 60),
  correo: textoOpcional('Correo electrónico', 120),
};

const datosEmpresa = z
  .object({
    rfc: rfc('RFC de la empresa').optional(),
    ...contacto,
    sitio_web: textoOpcional('Sitio web', 120),
  })
  .describe('Datos de la empresa que cotiza');

const datosCliente = z
  .object({
    rfc: rfc('RFC del cliente').optional(),
    atencion: textoOpcional('Persona a la que se dirige ("Atención")', 120),
    ...contacto,
  })
  .describe('Datos del cliente');

export const schema = z
  .object({
    empresa: texto('Empresa que cotiza', 300),
    datos_empresa: datosEmpresa.optional(),
    cliente: texto('Cliente al que se dirige la cotización', 300),
    datos_cliente: datosCliente.optional(),
    items: z.array(item).min(1).max(500).describe('Partidas cotizadas'),
    moneda: moneda(),
    fecha: fecha('Fecha de la cotización (AAAA-MM-DD)'),
    vigencia: fecha('Fecha hasta la que es válida la cotización (AAAA-MM-DD)').optional(),
    dias_vigencia: z
      .number()
      .int()
      .min(1)
      .max(365)
      .optional()
      .describe('Días de vigencia a partir de la fecha; calcula `vigencia` si no se da'),
    folio: textoOpcional('Número de cotización', 40),
    contacto: textoOpcional('Quién atiende: nombre, teléfono o correo', 200),
    descuento_global: fraccion('Descuento sobre el subtotal, como fracción (0.05 = 5 %)').optional(),
    descuento_global_monto: monto(
      'Descuento sobre el subtotal, como importe (en lugar del anterior)',
    ).optional(),
    tasa_iva: z
      .literal([0, 0.08, 0.16])
      .default(0.16)
      .describe('Tasa de IVA: 0.16, 0.08 (región fronteriza) o 0; por omisión 0.16'),
    retenciones: z
      .object({
        iva: fraccion(
          'Retención de IVA como fracción de la base, p. ej. 0.106667 (dos terceras partes del 16 %)',
          0.16,
        ).optional(),
        isr: fraccion(
          'Retención de ISR como fracción de la base, p. ej. 0.10 (honorarios) o 0.0125 (RESICO)',
          0.35,
        ).optional(),
      })
      .optional()
      .describe('Retenciones cuando el cliente es persona moral y el servicio las causa'),
    condiciones: z
      .array(texto('Condición', 500))
      .max(30)
      .default([])
      .describe('Términos y condiciones, uno por elemento'),
    notas: textoOpcional('Notas', 2000),
    firma: firmante.optional().describe('Quién firma la cotización por la empresa'),
    aceptacion: z
      .boolean()
      .default(true)
      .describe('Imprimir el bloque de aceptación para que firme el cliente (por omisión sí)'),
  })
  .superRefine((d, ctx) => {
    d.items.forEach((it, i) => {
      if (it.descuento_monto === undefined) return;
      if (it.descuento > 0)
        customIssue(
          ctx,
          ['items', i, 'descuento_monto'],
          'Give the item descuento (a fraction) or descuento_monto (an amount), not both',
          'value_error',
        );
      const bruto = dec(it.cantidad).times(dec(it.precio));
      if (dec(it.descuento_monto).greaterThan(bruto))
        customIssue(
          ctx,
          ['items', i, 'descuento_monto'],
          `descuento_monto (${dec(it.descuento_monto).toFixed(2)}) is more than the item's importe (${bruto.toFixed(2)})`,
          'value_error',
        );
    });
    if (d.descuento_global !== undefined && d.descuento_global_monto !== undefined)
      customIssue(
        ctx,
        ['descuento_global_monto'],
        'Give descuento_global (a fraction) or descuento_global_monto (an amount), not both',
        'value_error',
      );
    if (d.descuento_global_monto !== undefined) {
      const subtotal = sum(d.items.map((it) => partida(it, d.moneda).importe));
      if (dec(d.descuento_global_monto).greaterThan(subtotal))
        customIssue(
          ctx,
          ['descuento_global_monto'],
          `descuento_global_monto (${dec(d.descuento_global_monto).toFixed(2)}) is more than the subtotal (${subtotal.toFixed(2)})`,
          'value_error',
        );
    }
    if (d.vigencia !== undefined && d.vigencia < d.fecha)
      customIssue(
        ctx,
        ['vigencia'],
        `vigencia (${d.vigencia}) is before the quote's fecha (${d.fecha})`,
        'date_order',
      );
    if (
      d.vigencia !== undefined &&
      d.dias_vigencia !== undefined &&
      sumaDias(d.fecha, d.dias_vigencia) !== d.vigencia
    )
      customIssue(
        ctx,
        ['dias_vigencia'],
        `${d.dias_vigencia} days from ${d.fecha} is ${sumaDias(d.fecha, d.dias_vigencia)}, not ${d.vigencia}: send only one of vigencia and dias_vigencia`,
        'value_error',
      );
  });

/** `iso` plus `dias` calendar days ("2024-05-06" + 30 → "2024-06-05"). */
export function sumaDias(iso: string, dias: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + dias * 86_400_000).toISOString().slice(0, 10);
}

export type CotizacionData = z.output<typeof schema>;
