// Data of the `nomina` template: a payroll receipt shaped after the printed representation of a CFDI de nómina
// 1.2 (employer, employee, period, percepciones with gravado/exento, deducciones, otros pagos, neto con letra).
// Checks, each a 400 on its own field with an English message (the API's error language; field descriptions stay
// Spanish for the end users of the JSON Schema): RFC (13 characters for the employee, a persona
// física), CURP (format, date and RENAPO check digit), NSS (1–15 digits, nomina12.xsd), SAT catalogue codes, the order of the
// dates, each line's importe = gravado + exento, the totals when the caller states them, and a net pay ≥ 0.
import { z } from 'zod';
import { dec, sum, type Dec } from '../kit/money';
import {
  codigoPostal,
  curp,
  customIssue,
  fecha,
  moneda,
  nss,
  rfc,
  rfcPersonaFisica,
  texto,
  textoOpcional,
} from '../kit/schema-helpers';
import {
  DEDUCCION_MAX,
  lookup,
  OTRO_PAGO_SUBSIDIO,
  PERIODICIDAD_PAGO,
  RIESGO_PUESTO,
  TIPO_CONTRATO,
  TIPO_DEDUCCION,
  TIPO_JORNADA,
  TIPO_OTRO_PAGO,
  TIPO_PERCEPCION,
  TIPO_REGIMEN,
} from './catalogos';

/** A code of a SAT catalogue given as its code (or, with `names`, its name), e.g. "04" or "Quincenal". */
function catalogo(cat: Record<string, string>, nombre: string, description: string, names = false) {
  const codes = Object.keys(cat);
  return z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (names ? !lookup(cat, v) : !(v in cat))
        ctx.addIssue({
          code: 'custom',
          message: `"${v}" is not in the SAT catalogue ${nombre}: use ${codes.slice(0, 6).join(', ')}…${names ? ` or the name, e.g. "${Object.values(cat)[3]}"` : ''}`,
          params: { type: 'catalog_code' },
        });
    })
    .describe(`${description} (catálogo ${nombre}: ${codes.map((c) => `${c} ${cat[c]}`).join('; ')})`);
}

/** A three-digit type code within SAT's range for its catalogue (001 to `max`, plus `extra`). */
function claveEnRango(v: string, max: number, extra: readonly string[] = []): boolean {
  return (/^\d{3}$/.test(v) && +v >= 1 && +v <= max) || extra.includes(v);
}

/** The `clave` of percepciones/deducciones/otros pagos: a type code of the catalogue. */
function claveTipo(nombre: string, known: Record<string, string>, max: number, extra: string[] = []) {
  return z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (!claveEnRango(v, max, extra))
        ctx.addIssue({
          code: 'custom',
          message: `The clave must be a 3-digit code of the SAT catalogue ${nombre} (001 to ${String(max).padStart(3, '0')}${extra.length ? `, ${extra.join(', ')}` : ''}), e.g. ${Object.keys(known)[1]} ${Object.values(known)[1]}`,
          params: { type: 'catalog_code' },
        });
    })
    .optional()
    .describe(
      `Tipo según el catálogo ${nombre} del SAT, p. ej. "${Object.keys(known)[1]}" (${Object.values(known)[1]})`,
    );
}

const PERCEPCION_MAX = 53;
const OTRO_PAGO_MAX = 9;
const OTRO_PAGO_EXTRA = ['999'];

const importe = (description: string) => z.number().finite().nonnegative().describe(description);

/** A line must say what it is: its own concepto, or a code whose name we know (a code outside the catalogue's
 * range is reported on `clave` alone). */
function needsConcepto(
  line: { clave?: string; concepto?: string },
  known: Record<string, string>,
  ctx: z.RefinementCtx,
  range: [number, string[]?],
): void {
  const fuera = line.clave !== undefined && !claveEnRango(line.clave, ...range);
  if (!line.concepto && !fuera && !(line.clave && known[line.clave]))
    customIssue(
      ctx,
      ['concepto'],
      'Give the concepto (or a clave of the SAT catalogue that names it)',
      'missing',
    );
}

export const percepcion = z
  .object({
    clave: claveTipo('c_TipoPercepcion', TIPO_PERCEPCION, PERCEPCION_MAX),
    concepto: textoOpcional('Concepto tal como se imprime; por omisión, el nombre de la clave del SAT', 200),
    gravado: importe('Importe gravado (sujeto a ISR)').optional(),
    exento: importe('Importe exento de ISR').optional(),
    importe: importe(
      'Importe total; si se indican gravado y exento debe ser su suma. Sin gravado ni exento, todo es gravado',
    ).optional(),
  })
  .superRefine((p, ctx) => {
    needsConcepto(p, TIPO_PERCEPCION, ctx, [PERCEPCION_MAX]);
    if (p.importe === undefined && p.gravado === undefined && p.exento === undefined) {
      customIssue(ctx, ['importe'], 'Give the importe, or the gravado and the exento', 'missing');
    } else if (p.importe !== undefined && (p.gravado !== undefined || p.exento !== undefined)) {
      const suma = dec(p.gravado ?? 0).plus(dec(p.exento ?? 0));
      if (!suma.equals(dec(p.importe)))
        customIssue(
          ctx,
          ['importe'],
          `The importe (${dec(p.importe).toFixed(2)}) is not gravado + exento (${suma.toFixed(2)})`,
          'amount_mismatch',
        );
    }
  })
  .describe('Percepción');

export const deduccion = z
  .object({
    clave: claveTipo('c_TipoDeduccion', TIPO_DEDUCCION, DEDUCCION_MAX),
    concepto: textoOpcional('Concepto tal como se imprime; por omisión, el nombre de la clave del SAT', 200),
    importe: importe('Importe'),
  })
  .superRefine((d, ctx) => needsConcepto(d, TIPO_DEDUCCION, ctx, [DEDUCCION_MAX]))
  .describe('Deducción: ISR (002), seguridad social/IMSS (001), crédito de vivienda (010)…');

export const otroPago = z
  .object({
    clave: claveTipo('c_TipoOtroPago', TIPO_OTRO_PAGO, OTRO_PAGO_MAX, OTRO_PAGO_EXTRA),
    concepto: textoOpcional('Concepto tal como se imprime; por omisión, el nombre de la clave del SAT', 200),
    importe: importe('Importe pagado'),
    subsidio_causado: importe(
      'Subsidio para el empleo causado (clave 002); no puede ser menor que el importe entregado',
    ).optional(),
  })
  .superRefine((o, ctx) => {
    needsConcepto(o, TIPO_OTRO_PAGO, ctx, [OTRO_PAGO_MAX, OTRO_PAGO_EXTRA]);
    if (o.subsidio_causado !== undefined && o.clave !== OTRO_PAGO_SUBSIDIO)
      customIssue(
        ctx,
        ['subsidio_causado'],
        'subsidio_causado only applies to clave 002 (subsidio para el empleo)',
        'value_error',
      );
    if (o.subsidio_causado !== undefined && dec(o.subsidio_causado).lessThan(dec(o.importe)))
      customIssue(
        ctx,
        ['subsidio_causado'],
        `subsidio_causado (${dec(o.subsidio_causado).toFixed(2)}) cannot be less than the importe paid (${dec(o.importe).toFixed(2)})`,
        'value_error',
      );
  })
  .describe('Otro pago: subsidio para el empleo (002), viáticos (003)…');

export type Percepcion = z.output<typeof percepcion>;

/** What a percepción adds up to: its importe, else gravado + exento. */
export function importePercepcion(p: Percepcion): Dec {
  return p.importe !== undefined ? dec(p.importe) : dec(p.gravado ?? 0).plus(dec(p.exento ?? 0));
}

const total = (description: string) => z.number().finite().describe(description).optional();

/**
 * The schema. `desdeXml`: the data read from a stamped CFDI de nómina, checked by SAT's rules only — the CURP by
 * nomina12.xsd's pattern, without RENAPO's check digit (SAT stamps CURPs whose check digit does not match).
 */
/** Lines of a stamped XML: nomina12.xsd sets no maximum; this only bounds the work (the XML is ≤ 20,000 elements). */
const LINEAS_XML = 20_000;

function makeSchema({ desdeXml }: { desdeXml: boolean }) {
  return z
    .object({
      empresa: texto('Razón social del patrón', 300),
      rfc_empresa: rfc('RFC del patrón (12 caracteres persona moral, 13 persona física)').optional(),
      registro_patronal: textoOpcional('Registro patronal ante el IMSS, p. ej. "Y5412345106"', 20),
      regimen_fiscal: textoOpcional('Régimen fiscal del patrón (c_RegimenFiscal), p. ej. "601"', 60),
      lugar_expedicion: codigoPostal('Código postal del lugar de expedición').optional(),
      folio: textoOpcional('Folio interno del recibo', 40),
      tipo_nomina: z
        .enum(['O', 'E'])
        .default('O')
        .describe('Tipo de nómina: "O" ordinaria (por omisión) o "E" extraordinaria'),
      empleado: z
        .object({
          nombre: texto('Nombre completo', 200),
          rfc: rfcPersonaFisica('RFC del trabajador (persona física, 13 caracteres)'),
          curp: curp('CURP del trabajador (18 caracteres)', { digitoVerificador: !desdeXml }),
          nss: nss('Número de Seguridad Social (1 a 15 dígitos; el IMSS usa 11)').optional(),
          numero: textoOpcional('Número de empleado', 15),
          puesto: textoOpcional('Puesto', 120),
          departamento: textoOpcional('Departamento', 120),
          fecha_ingreso: fecha('Fecha de inicio de la relación laboral (AAAA-MM-DD)').optional(),
          tipo_contrato: catalogo(TIPO_CONTRATO, 'c_TipoContrato', 'Tipo de contrato').optional(),
          tipo_regimen: catalogo(TIPO_REGIMEN, 'c_TipoRegimen', 'Tipo de régimen').default('02'),
          tipo_jornada: catalogo(TIPO_JORNADA, 'c_TipoJornada', 'Tipo de jornada').optional(),
          riesgo_puesto: catalogo(RIESGO_PUESTO, 'c_RiesgoPuesto', 'Riesgo del puesto').optional(),
          salario_diario: importe('Salario diario').optional(),
          salario_diario_integrado: importe(
            'Salario diario integrado (SDI), base de cotización al IMSS',
          ).optional(),
          banco: textoOpcional('Banco donde se deposita', 80),
          cuenta: z
            .string()
            .trim()
            .refine((s) => /^\d{10,18}$/.test(s), {
              message: 'An account number has 10 to 18 digits (a CLABE, 18)',
              params: { type: 'account_format' },
            })
            .optional()
            .describe('Cuenta o CLABE donde se deposita; se imprimen sólo los últimos 4 dígitos'),
        })
        .describe('Datos del trabajador'),
      periodo: z
        .object({
          inicio: fecha('Fecha inicial de pago (AAAA-MM-DD)'),
          fin: fecha('Fecha final de pago (AAAA-MM-DD)'),
          periodicidad: catalogo(
            PERIODICIDAD_PAGO,
            'c_PeriodicidadPago',
            'Periodicidad de pago: la clave ("04") o el nombre ("Quincenal")',
            true,
          ),
          dias_pagados: z
            .number()
            .finite()
            .positive()
            // nomina12.xsd writes NumDiasPagados with up to 5 integer digits (pensions, settlements): SAT's bound.
            .max(desdeXml ? 36160 : 366)
            .optional()
            .describe('Número de días pagados; por omisión, los días del periodo'),
        })
        .describe('Periodo de pago'),
      fecha_pago: fecha('Fecha de pago (AAAA-MM-DD)'),
      moneda: moneda(),
      percepciones: z
        .array(percepcion)
        .min(1)
        .max(desdeXml ? LINEAS_XML : 100)
        .describe('Percepciones: sueldo, horas extra, premios…'),
      deducciones: z
        .array(deduccion)
        .max(desdeXml ? LINEAS_XML : 100)
        .default([])
        .describe('Deducciones: ISR, cuotas IMSS, créditos…'),
      otros_pagos: z
        .array(otroPago)
        .max(desdeXml ? LINEAS_XML : 100)
        .default([])
        .describe('Otros pagos: subsidio para el empleo, viáticos…'),
      totales: z
        .object({
          percepciones: total('Total de percepciones'),
          deducciones: total('Total de deducciones'),
          otros_pagos: total('Total de otros pagos'),
          neto: total('Neto a pagar'),
        })
        .optional()
        .describe('Totales que usted calculó: si se envían, se comprueba que cuadren al centavo'),
      notas: textoOpcional('Nota al pie del recibo', 600),
    })
    .superRefine((d, ctx) => {
      const t = (xs: readonly { importe: number }[]) => sum(xs.map((x) => dec(x.importe)));
      const percepciones = sum(d.percepciones.map(importePercepcion));
      const deducciones = t(d.deducciones);
      const otros = t(d.otros_pagos);
      const neto = percepciones.plus(otros).minus(deducciones);
      if (neto.isNegative()) {
        customIssue(
          ctx,
          ['deducciones'],
          `The deducciones exceed what is paid: the net pay would be ${neto.toFixed(2)}`,
          'negative_net_pay',
        );
      }
      if (d.periodo.inicio > d.periodo.fin)
        customIssue(ctx, ['periodo', 'fin'], 'periodo.fin is before periodo.inicio', 'date_order');
      if (d.empleado.fecha_ingreso && d.empleado.fecha_ingreso > d.periodo.fin)
        customIssue(
          ctx,
          ['empleado', 'fecha_ingreso'],
          'fecha_ingreso is after the end of the pay period (periodo.fin)',
          'date_order',
        );
      const { salario_diario: sd, salario_diario_integrado: sdi } = d.empleado;
      if (sd !== undefined && sdi !== undefined && dec(sdi).lessThan(dec(sd)))
        customIssue(
          ctx,
          ['empleado', 'salario_diario_integrado'],
          'salario_diario_integrado cannot be less than salario_diario',
          'value_error',
        );
      const given = d.totales ?? {};
      const computed: Record<string, Dec> = { percepciones, deducciones, otros_pagos: otros, neto };
      for (const [k, v] of Object.entries(computed)) {
        const stated = given[k as keyof typeof given];
        if (stated !== undefined && !dec(stated).equals(v.toDecimalPlaces(2)))
          customIssue(
            ctx,
            ['totales', k],
            `Does not add up: the lines give ${v.toFixed(2)} and the data says ${dec(stated).toFixed(2)}`,
            'total_mismatch',
          );
      }
    });
}

export const schema = makeSchema({ desdeXml: false });
/** The data of a stamped XML (templates/nomina/desde-xml.ts): SAT's rules, nothing stricter. */
export const schemaDesdeXml = makeSchema({ desdeXml: true });

export type NominaData = z.output<typeof schema>;
