// Larger ventas data for tests, previews and the benchmark: a deterministic catalogue of `n` products (a long-tailed
// revenue curve, as real catalogues have), in four regions, with targets. No randomness: the same n gives the same
// report, so golden totals can be computed independently in tests.
import type { z } from 'zod';
import type { schema } from './schema';

const LINES = ['Café en grano', 'Café molido', 'Cápsulas', 'Accesorios', 'Té y tisanas', 'Repostería'];
const REGIONS = ['Centro', 'Norte', 'Occidente', 'Sureste'];
const ITEMS = ['Chiapas', 'Veracruz', 'Oaxaca', 'Puebla', 'Nayarit', 'Guerrero', 'Colima', 'Hidalgo'];
const SIZES = ['250 g', '500 g', '1 kg', 'caja 12', 'caja 20', 'pieza'];

export function largeVentas(n: number, extra: Partial<z.input<typeof schema>> = {}): z.input<typeof schema> {
  const rows = Array.from({ length: n }, (_, i) => {
    // Revenue falls off like 1/(i+3), in whole centavos, with a small wobble so ranks are not the input order.
    const base = Math.round((9_000_000 / (i + 3)) * (1 + ((i * 37) % 11) / 40));
    const revenue = base / 100 + ((i * 7) % 100) / 100;
    const price = 45 + ((i * 53) % 900);
    return {
      product: `${LINES[i % LINES.length]} ${ITEMS[(i * 5) % ITEMS.length]} ${SIZES[(i * 3) % SIZES.length]} · modelo ${i + 1}`,
      sku: `CA-${String(1000 + i)}`,
      region: REGIONS[(i * 7) % REGIONS.length],
      units: Math.max(1, Math.round(revenue / price)),
      revenue: Number(revenue.toFixed(2)),
      ...(i % 3 === 0 ? { target: Math.round(revenue * (0.9 + (i % 5) / 20)) } : {}),
    };
  });
  return {
    title: `Ventas por producto — catálogo completo (${n} productos)`,
    period: 'Ejercicio 2024',
    company: 'Café de Altura Chiapaneco',
    currency: 'MXN',
    group_by: 'region',
    rows,
    notes: 'Reporte de ejemplo con datos sintéticos para mostrar la paginación y el análisis de Pareto.',
    ...extra,
  };
}
