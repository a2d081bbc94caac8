// Data of the `ventas` template: the contract's shape {title, rows[{product, units, revenue}]} exactly, plus
// optional period, currency and notes.
import { z } from 'zod';
import { moneda, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

export const row = z.object({
  product: texto('Producto o línea de producto', 200),
  units: z.number().finite().nonnegative().describe('Unidades vendidas'),
  revenue: z.number().finite().describe('Ingresos del producto en el periodo (en la moneda del reporte)'),
});

export const schema = z.object({
  title: texto('Título del reporte', 200),
  rows: z.array(row).min(1).max(5000).describe('Ventas por producto (al menos una fila)'),
  period: textoOpcional('Periodo que cubre el reporte, p. ej. "Enero – marzo 2024"', 100),
  currency: moneda('Moneda de los ingresos, código ISO 4217. Por omisión MXN.'),
  company: textoOpcional('Empresa que emite el reporte', 200),
  notes: textoOpcional('Comentarios al pie', 2000),
});

export type VentasData = z.output<typeof schema>;
