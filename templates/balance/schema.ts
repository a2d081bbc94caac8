// Data of the `balance` template: a balance sheet (estado de situación financiera) at a cut-off date. Each group is
// a list of accounts {concepto, importe}; groups may be empty. The accounting identity is checked:
// activo = pasivo + capital, else 400 naming the difference.
import { z } from 'zod';
import { dec, sum } from '../../lambdas/documents/domain/money';
import { fecha, moneda, texto, textoOpcional } from '../../lambdas/documents/domain/schema-helpers';

const cuenta = z.object({
  concepto: texto('Nombre de la cuenta', 200),
  importe: z
    .number()
    .finite()
    .describe('Saldo de la cuenta (negativo para cuentas complementarias, p. ej. depreciación)'),
});
const cuentas = (d: string) => z.array(cuenta).max(200).default([]).describe(d);

export const schema = z
  .object({
    empresa: texto('Nombre o razón social', 300),
    fecha_corte: fecha('Fecha de corte del balance (AAAA-MM-DD)'),
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
    notas: textoOpcional('Notas al balance', 2000),
  })
  .superRefine((d, ctx) => {
    const total = (xs: { importe: number }[]) => sum(xs.map((x) => dec(x.importe)));
    const activo = total([...d.activo.circulante, ...d.activo.fijo, ...d.activo.diferido]);
    const pasivoCapital = total([...d.pasivo.corto_plazo, ...d.pasivo.largo_plazo, ...d.capital]);
    if (!activo.eq(pasivoCapital)) {
      ctx.addIssue({
        code: 'custom',
        path: ['capital'],
        message: `The balance does not balance: activo ${activo.toFixed(2)} ≠ pasivo + capital ${pasivoCapital.toFixed(2)} (difference ${activo.minus(pasivoCapital).toFixed(2)})`,
        params: { type: 'balance_mismatch' },
      });
    }
  });

export type BalanceData = z.output<typeof schema>;
