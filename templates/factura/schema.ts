// Data of the `factura` template. The contract's shape is accepted exactly as shown
// (empresa, cliente, items[{concepto, cantidad, precio}], moneda); the optional members add what a printed CFDI 4.0
// carries. Issue #6 extends this with the full CFDI fields.
import { z } from 'zod';
import { fecha, moneda, rfc, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

export const TASAS_IVA = [0, 0.08, 0.16] as const;

export const item = z.object({
  concepto: texto('Descripción del producto o servicio', 1000),
  cantidad: z.number().finite().positive().describe('Cantidad (mayor que cero; admite decimales)'),
  precio: z.number().finite().nonnegative().describe('Precio unitario antes de impuestos'),
  unidad: textoOpcional('Unidad de medida (pieza, hora, servicio…)', 40),
  clave: textoOpcional('Clave de producto o servicio del SAT', 20),
});

export const schema = z.object({
  empresa: texto('Nombre o razón social de quien emite la factura', 300),
  cliente: texto('Nombre o razón social de quien recibe la factura', 300),
  items: z.array(item).min(1).max(500).describe('Conceptos facturados (al menos uno)'),
  moneda: moneda(),
  rfc_emisor: rfc('RFC del emisor').optional(),
  rfc_cliente: rfc('RFC del receptor').optional(),
  serie: textoOpcional('Serie de la factura', 25),
  folio: textoOpcional('Folio de la factura', 40),
  fecha: fecha('Fecha de emisión (AAAA-MM-DD)').optional(),
  tasa_iva: z
    .literal(TASAS_IVA)
    .default(0.16)
    .describe('Tasa de IVA trasladado: 0.16 (general), 0.08 (región fronteriza) o 0; por omisión 0.16'),
  forma_pago: textoOpcional('Forma de pago (p. ej. "03 Transferencia electrónica")', 100),
  metodo_pago: textoOpcional('Método de pago (PUE o PPD)', 100),
  notas: textoOpcional('Notas al pie', 2000),
});

export type FacturaData = z.output<typeof schema>;
