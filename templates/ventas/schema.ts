// Data of the `ventas` template: the contract's shape {title, rows[{product, units, revenue}]} exactly, plus
// optional period, currency, company, notes, per-row SKU, category, region and target, grouping (`group_by`) and a
// revenue target for the whole period.
import { z } from 'zod';
import { moneda, texto, textoOpcional } from '../kit/schema-helpers';

export const row = z.object({
  product: texto('Producto o línea de producto', 200),
  units: z.number().finite().nonnegative().describe('Unidades vendidas'),
  revenue: z.number().finite().describe('Ingresos del producto en el periodo (en la moneda del reporte)'),
  sku: textoOpcional('Clave o SKU del producto', 60),
  category: textoOpcional('Categoría o línea del producto (agrupa con group_by: "category")', 100),
  region: textoOpcional('Región, plaza o sucursal (agrupa con group_by: "region")', 100),
  target: z
    .number()
    .finite()
    .nonnegative()
    .optional()
    .describe('Meta de ingresos del producto en el periodo (añade las columnas Meta y Cumplimiento)'),
});

export const GROUP_FIELDS = { category: 'categoría', region: 'región' } as const;

export const schema = z
  .object({
    title: texto('Título del reporte', 200),
    rows: z.array(row).min(1).max(5000).describe('Ventas por producto (al menos una fila)'),
    period: textoOpcional('Periodo que cubre el reporte, p. ej. "Enero – marzo 2024"', 100),
    currency: moneda('Moneda de los ingresos, código ISO 4217. Por omisión MXN.'),
    company: textoOpcional('Empresa que emite el reporte', 200),
    group_by: z
      .enum(['category', 'region'])
      .optional()
      .describe('Agrupar por "category" (categoría) o "region" (región): resumen, gráfica y hoja por grupo'),
    target: z
      .number()
      .finite()
      .nonnegative()
      .optional()
      .describe('Meta de ingresos del periodo completo; sin ella, la suma de las metas por producto'),
    notes: textoOpcional('Comentarios al pie', 2000),
  })
  .superRefine((d, ctx) => {
    if (d.group_by && !d.rows.some((r) => r[d.group_by!])) {
      ctx.addIssue({
        code: 'custom',
        path: ['group_by'],
        message: `group_by '${d.group_by}' needs a '${d.group_by}' on the rows, and no row has one: add it or leave group_by out`,
        params: { type: 'group_by_without_values' },
      });
    }
  });

export type VentasData = z.output<typeof schema>;
