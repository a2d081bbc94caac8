// Data of the `balance` template: a balance sheet (estado de situación financiera) at a cut-off date, optionally
// compared with a previous one. Each group is a list of accounts {concepto, importe, importe_anterior?}; groups may
// be empty. The accounting identity is checked for each period: activo = pasivo + capital, else 400 naming both
// sides and the difference to the centavo (type balance_mismatch).
import { z } from 'zod';
import { dec, sum, type Dec } from '../kit/money';
import { fecha, moneda, rfc, texto, textoOpcional } from '../kit/schema-helpers';

const cuenta = z.object({
  concepto: texto('Nombre de la cuenta', 200),
  importe: z
    .number()
    .finite()
    .describe(
      'Saldo de la cuenta a la fecha de corte (negativo para cuentas complementarias, p. ej. depreciación)',
    ),
  importe_anterior: z
    .number()
    .finite()
    .optional()
    .describe('Saldo al corte anterior (balance comparativo; requiere fecha_corte_anterior). Sin él, 0.'),
});
const cuentas = (d: string) => z.array(cuenta).max(200).default([]).describe(d);

const firma = z.object({
  nombre: texto('Nombre de quien firma', 120),
  cargo: textoOpcional('Cargo, p. ej. "Contador general"', 120),
});

export const schema = z
  .object({
    empresa: texto('Nombre o razón social', 300),
    rfc: rfc('RFC de la empresa').optional(),
    fecha_corte: fecha('Fecha de corte del balance (AAAA-MM-DD)'),
    fecha_corte_anterior: fecha(
      'Fecha de corte del periodo con el que se compara (AAAA-MM-DD): añade columnas del periodo anterior y la variación',
    ).optional(),
    moneda: moneda(),
    activo: z
      .object({
        circulante: cuentas('Activo circulante: efectivo, bancos, clientes, inventarios…'),
        fijo: cuentas('Activo fijo (no circulante): terrenos, edificios, equipo, menos depreciación'),
        diferido: cuentas('Activo diferido: pagos anticipados, gastos de instalación…'),
      })
      .describe('Activo'),
    pasivo: z
      .object({
        corto_plazo: cuentas('Pasivo a corto plazo: proveedores, impuestos por pagar, préstamos < 1 año'),
        largo_plazo: cuentas('Pasivo a largo plazo: préstamos e hipotecas > 1 año'),
      })
      .describe('Pasivo'),
    capital: cuentas('Capital contable: capital social, utilidades retenidas, resultado del ejercicio'),
    elaboro: firma.optional().describe('Quién elaboró el balance (línea de firma)'),
    autorizo: firma.optional().describe('Quién lo autorizó (línea de firma)'),
    notas: textoOpcional('Notas al balance', 2000),
  })
  .superRefine((d, ctx) => {
    const all = <T>(f: (x: z.output<typeof cuenta>) => T) => ({
      activo: [...d.activo.circulante, ...d.activo.fijo, ...d.activo.diferido].map(f),
      pasivoCapital: [...d.pasivo.corto_plazo, ...d.pasivo.largo_plazo, ...d.capital].map(f),
    });
    const check = (sides: { activo: Dec[]; pasivoCapital: Dec[] }, when: string) => {
      const activo = sum(sides.activo);
      const pc = sum(sides.pasivoCapital);
      if (activo.eq(pc)) return;
      const diff = activo.minus(pc);
      const places = Math.max(2, diff.decimalPlaces(), activo.decimalPlaces(), pc.decimalPlaces());
      ctx.addIssue({
        code: 'custom',
        path: ['capital'],
        message:
          `The balance does not balance${when}: activo ${activo.toFixed(places)} ≠ pasivo + capital ` +
          `${pc.toFixed(places)} (difference ${diff.toFixed(places)})`,
        params: { type: 'balance_mismatch' },
      });
    };
    check(
      all((x) => dec(x.importe)),
      '',
    );
    if (d.fecha_corte_anterior) {
      check(
        all((x) => dec(x.importe_anterior ?? 0)),
        ` at fecha_corte_anterior ${d.fecha_corte_anterior}`,
      );
      if (d.fecha_corte_anterior >= d.fecha_corte)
        ctx.addIssue({
          code: 'custom',
          path: ['fecha_corte_anterior'],
          message: `fecha_corte_anterior must be before fecha_corte (${d.fecha_corte})`,
          params: { type: 'date_order' },
        });
    } else if (
      all((x) => x.importe_anterior !== undefined).activo.some(Boolean) ||
      all((x) => x.importe_anterior !== undefined).pasivoCapital.some(Boolean)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['fecha_corte_anterior'],
        message: 'Accounts carry importe_anterior: give fecha_corte_anterior (YYYY-MM-DD) for the comparison',
        params: { type: 'missing' },
      });
    }
  });

export type BalanceData = z.output<typeof schema>;
export type Cuenta = z.output<typeof cuenta>;
