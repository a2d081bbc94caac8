// Data of the `nomina` template: a payroll receipt shaped after the printed CFDI de nómina 1.2. Issue #6 adds the
// remaining SAT fields; the net pay must not be negative.
import { z } from 'zod';
import { dec, sum } from '../../lambdas/documents/domain/money';
import { fecha, moneda, rfc, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

const linea = z.object({
  concepto: texto('Concepto (p. ej. "Sueldo", "ISR", "Cuota IMSS")', 200),
  importe: z.number().finite().nonnegative().describe('Importe'),
  clave: textoOpcional('Clave del concepto (catálogo del SAT o interna)', 20),
});

export const schema = z
  .object({
    empresa: texto('Razón social del patrón', 300),
    rfc_empresa: rfc('RFC del patrón').optional(),
    registro_patronal: textoOpcional('Registro patronal ante el IMSS', 20),
    empleado: z
      .object({
        nombre: texto('Nombre completo', 200),
        rfc: rfc('RFC del trabajador').optional(),
        curp: z
          .string()
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d$/, {
            message: 'Not a CURP: 18 characters, e.g. GODE561231HDFRRN09',
          })
          .optional()
          .describe('CURP'),
        nss: z
          .string()
          .regex(/^\d{11}$/, { message: 'NSS must be 11 digits' })
          .optional()
          .describe('Número de Seguridad Social (11 dígitos)'),
        puesto: textoOpcional('Puesto', 120),
        departamento: textoOpcional('Departamento', 120),
        numero: textoOpcional('Número de empleado', 30),
      })
      .describe('Datos del trabajador'),
    periodo: z
      .object({
        inicio: fecha('Primer día del periodo de pago (AAAA-MM-DD)'),
        fin: fecha('Último día del periodo de pago (AAAA-MM-DD)'),
        periodicidad: textoOpcional('Periodicidad: semanal, quincenal, mensual…', 40),
        dias_pagados: z.number().finite().positive().max(366).optional().describe('Días pagados'),
      })
      .describe('Periodo de pago'),
    fecha_pago: fecha('Fecha de pago (AAAA-MM-DD)'),
    moneda: moneda(),
    percepciones: z.array(linea).min(1).max(100).describe('Percepciones: sueldo, horas extra, bonos…'),
    deducciones: z.array(linea).max(100).default([]).describe('Deducciones: ISR, cuotas IMSS, préstamos…'),
    otros_pagos: z
      .array(linea)
      .max(100)
      .default([])
      .describe('Otros pagos: subsidio para el empleo, viáticos…'),
  })
  .superRefine((d, ctx) => {
    const t = (xs: { importe: number }[]) => sum(xs.map((x) => dec(x.importe)));
    const neto = t(d.percepciones).plus(t(d.otros_pagos)).minus(t(d.deducciones));
    if (neto.isNegative()) {
      ctx.addIssue({
        code: 'custom',
        path: ['deducciones'],
        message: `Deductions exceed what is paid: the net pay would be ${neto.toFixed(2)}`,
        params: { type: 'negative_net_pay' },
      });
    }
    if (d.periodo.inicio > d.periodo.fin) {
      ctx.addIssue({
        code: 'custom',
        path: ['periodo', 'fin'],
        message: 'The period ends before it starts: fin must be on or after inicio',
        params: { type: 'period_order' },
      });
    }
  });

export type NominaData = z.output<typeof schema>;
