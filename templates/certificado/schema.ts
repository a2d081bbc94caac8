// Data of the `certificado` template: a certificate of completion.
import { z } from 'zod';
import { fecha, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

export const schema = z.object({
  nombre: texto('Nombre completo de quien recibe el certificado', 200),
  curso: texto('Nombre del curso, taller o programa', 300),
  fecha: fecha('Fecha de conclusión (AAAA-MM-DD)'),
  emisor: texto('Institución o empresa que otorga el certificado', 200),
  horas: z.number().finite().positive().max(10000).optional().describe('Duración en horas'),
  descripcion: textoOpcional('Texto adicional, p. ej. "por haber concluido satisfactoriamente…"', 600),
  lugar: textoOpcional('Ciudad donde se expide, p. ej. "Monterrey, N. L."', 120),
  folio: textoOpcional('Folio o número de certificado', 60),
  url_verificacion: z
    .url({ protocol: /^https?$/, message: 'Must be an http(s) URL' })
    .max(500)
    .optional()
    .describe('URL pública donde se puede verificar el certificado'),
  firmantes: z
    .array(
      z.object({
        nombre: texto('Nombre de quien firma', 120),
        cargo: textoOpcional('Cargo de quien firma', 120),
      }),
    )
    .max(3)
    .default([])
    .describe('Hasta tres firmas'),
});

export type CertificadoData = z.output<typeof schema>;
