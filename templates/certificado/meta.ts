// certificado: certificate of completion, landscape.
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { schema, type CertificadoData } from './schema';
import sample from './sample.json';

export const certificado = defineTemplate({
  meta: {
    slug: 'certificado',
    title: 'Certificado',
    purpose: 'Certificado de conclusión de curso',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'A4', landscape: true, margin: '10mm' },
  },
  schema,
  sample: sample as CertificadoData,
  view: (data) => ({
    ...data,
    calc: {
      horas_texto: data.horas === undefined ? null : `${data.horas} ${data.horas === 1 ? 'hora' : 'horas'}`,
    },
  }),
  title: (data) => `Certificado — ${data.nombre}`,
});
