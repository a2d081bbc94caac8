// Data of the `certificado` template: a certificate of completion (landscape, one page in A4 and Letter).
import { z } from 'zod';
import { fecha, texto, textoOpcional } from '../kit/schema-helpers';

export const firmante = z.object({
  nombre: texto('Nombre de quien firma, p. ej. "Dra. Elena Castañeda Ruiz"', 120),
  cargo: textoOpcional('Cargo de quien firma, p. ej. "Directora académica"', 120),
});

export const schema = z.object({
  nombre: texto('Nombre completo de quien recibe el certificado', 200),
  curso: texto('Nombre del curso, taller o programa', 300),
  fecha: fecha('Fecha de conclusión (AAAA-MM-DD); se imprime como "21 de noviembre de 2026"'),
  emisor: texto('Institución o empresa que otorga el certificado', 200),
  horas: z.number().finite().positive().max(10000).optional().describe('Duración en horas'),
  titulo: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .default('Certificado')
    .describe('Título del documento: "Certificado" (por omisión), "Constancia", "Reconocimiento"…'),
  descripcion: textoOpcional(
    'Texto antes del curso; por omisión "Por haber concluido satisfactoriamente"',
    600,
  ),
  lugar: textoOpcional('Ciudad donde se expide, p. ej. "Monterrey, N. L."', 120),
  folio: textoOpcional('Folio o número de certificado', 60),
  url_verificacion: z
    .url({ protocol: /^https?$/, message: 'Must be an http(s) URL' })
    .max(500)
    .optional()
    .describe('URL pública donde se puede verificar el certificado; se imprime con su código QR'),
  firmantes: z
    .array(firmante)
    .min(1)
    .max(3)
    .optional()
    .describe('De una a tres firmas (nombre y cargo); sin firmantes se deja una línea de firma del emisor'),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Use a hex colour such as #1f3a5f' })
    .optional()
    .describe('Color de acento en hexadecimal, p. ej. "#1f3a5f" (azul marino por omisión)'),
});

export type CertificadoData = z.output<typeof schema>;
