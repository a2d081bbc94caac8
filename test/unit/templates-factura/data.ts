// The factura template and the helpers of test/unit/templates-factura.test.ts and its case groups beside this file.
import { validateRenderRequest } from '../../../lambdas/documents/use-cases/render-request';
import {
  builtInPartials,
  findTemplate,
  loadSource,
} from '../../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../../lambdas/documents/templating/trusted';
import { schema, type FacturaData } from '../../../templates/factura/schema';

export const factura = findTemplate('factura')!;
export const SAMPLE = factura.sample as Record<string, unknown>;
export const MINIMAL = {
  empresa: 'Taller Núñez',
  cliente: 'Cliente & Asociados',
  items: [{ concepto: 'Reparación', cantidad: 1, precio: 1234.56 }],
  moneda: 'MXN',
};

export function parse(data: unknown): FacturaData {
  return schema.parse(data);
}

export function problems(data: unknown) {
  const r = validateRenderRequest({ template: 'factura', format: 'pdf', data });
  return r.ok ? [] : r.problems;
}

/** The single problem of `data`, as the API reports it. */
export function problem(data: unknown) {
  const p = problems(data);
  expect(p).toHaveLength(1);
  return p[0]!;
}

export function html(data: unknown): string {
  const { source, hash } = loadSource('factura');
  return renderTrusted(source, factura.view(parse(data) as never), builtInPartials(), `factura@${hash}`);
}

export function text(page: string): string {
  return page
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/[\s\u00a0]+/g, ' ');
}
