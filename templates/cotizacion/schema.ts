// Data of the `cotizacion` template: a price quote.
import { z } from 'zod';
import { fecha, moneda, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

export const item = z.object({
  concepto: texto('Producto o servicio cotizado', 1000),
  cantidad: z.number().finite().positive().describe('Cantidad'),
  precio: z.number().finite().nonnegative().describe('Precio unitario antes de impuestos'),
  descuento: z
    .number()
    .finite()
    .min(0)
    .max(1)
    .default(0)
    .describe('Descuento sobre el importe de la partida, como fracción (0.10 = 10 %)'),
  unidad: textoOpcional('Unidad de medida', 40),
});

export const schema = z.object({
  empresa: texto('Empresa que cotiza', 300),
  cliente: texto('Cliente al que se dirige la cotización', 300),
  items: z.array(item).min(1).max(500).describe('Partidas cotizadas'),
  moneda: moneda(),
  fecha: fecha('Fecha de la cotización (AAAA-MM-DD)'),
  vigencia: fecha('Fecha hasta la que es válida la cotización (AAAA-MM-DD)').optional(),
  folio: textoOpcional('Número de cotización', 40),
  contacto: textoOpcional('Persona de contacto, teléfono o correo', 200),
  tasa_iva: z
    .literal([0, 0.08, 0.16])
    .default(0.16)
    .describe('Tasa de IVA: 0.16, 0.08 o 0; por omisión 0.16'),
  condiciones: z
    .array(texto('Condición', 500))
    .max(20)
    .default([])
    .describe('Condiciones comerciales, una por línea'),
  notas: textoOpcional('Notas', 2000),
});

export type CotizacionData = z.output<typeof schema>;
