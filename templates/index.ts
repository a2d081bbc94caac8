// The built-in templates, in the order GET /templates lists them. Each is templates/<slug>/ (meta.ts plus its
// Jinja2 source template.html.j2); the documents service's registry (lambdas/documents/domain/template-registry.ts)
// reads this list and nothing else from here.
import type { BuiltInTemplate } from './kit/template-types';
import { balance } from './balance/meta';
import { certificado } from './certificado/meta';
import { cotizacion } from './cotizacion/meta';
import { factura } from './factura/meta';
import { nomina } from './nomina/meta';
import { ventas } from './ventas/meta';

export const TEMPLATES: readonly BuiltInTemplate[] = [
  factura,
  ventas,
  balance,
  certificado,
  cotizacion,
  nomina,
] as unknown as BuiltInTemplate[];
