// nomina: payroll receipt shaped after the printed CFDI de nómina 1.2. Totals as the complement defines them
// (exact decimals): TotalPercepciones = Σ importes (= TotalGravado + TotalExento), of which TotalSueldos excludes
// separation and retirement payments; TotalDeducciones = TotalImpuestosRetenidos (ISR, 002) +
// TotalOtrasDeducciones; TotalOtrosPagos; neto = percepciones + otros pagos − deducciones, written con letra.
import { importeConLetra } from '../kit/con-letra';
import { dec, moneyText, sum, type Dec } from '../kit/money';
import { cssString } from '../kit/css-string';
import {
  DEDUCCION_ISR,
  lookup,
  PERCEPCIONES_JUBILACION,
  PERCEPCIONES_SEPARACION,
  PERIODICIDAD_PAGO,
  RIESGO_PUESTO,
  TIPO_CONTRATO,
  TIPO_DEDUCCION,
  TIPO_JORNADA,
  TIPO_OTRO_PAGO,
  TIPO_PERCEPCION,
  TIPO_REGIMEN,
} from './catalogos';
import { REGIMEN_FISCAL } from '../kit/cfdi/catalogos';
import { importePercepcion, type NominaData } from './schema';

const DAY = 86_400_000;
const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** Days from `a` to `b`, both included. */
function diasEntre(a: string, b: string): number {
  return Math.round((utc(b) - utc(a)) / DAY) + 1;
}

/** "7 años 7 meses", "1 año", "3 meses", "menos de un mes": whole years and months from `desde` to `hasta`. */
export function antiguedad(desde: string, hasta: string): string {
  const [y1, m1, d1] = desde.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = hasta.split('-').map(Number) as [number, number, number];
  let meses = (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0);
  if (meses < 0) meses = 0;
  const a = Math.floor(meses / 12);
  const m = meses % 12;
  const parts = [a ? `${a} ${a === 1 ? 'año' : 'años'}` : '', m ? `${m} ${m === 1 ? 'mes' : 'meses'}` : ''];
  return parts.filter(Boolean).join(' ') || 'menos de un mes';
}

/** "01/03/2024" */
const fechaCorta = (iso: string) => iso.split('-').reverse().join('/');

const codigo = (cat: Record<string, string>, code: string | undefined) =>
  code === undefined ? null : `${code} ${cat[code] ?? ''}`.trim();

export function calcNomina(data: NominaData) {
  const m = data.moneda;
  const money = (v: Dec) => moneyText(v, m);
  const percepciones = data.percepciones.map((p) => {
    const importe = importePercepcion(p);
    const gravado = p.gravado !== undefined || p.exento !== undefined ? dec(p.gravado ?? 0) : importe;
    return {
      clave: p.clave ?? null,
      concepto: p.concepto ?? TIPO_PERCEPCION[p.clave!]!,
      gravado: money(gravado),
      exento: money(importe.minus(gravado)),
      importe: money(importe),
      _importe: importe,
      _gravado: gravado,
    };
  });
  const deducciones = data.deducciones.map((d) => ({
    clave: d.clave ?? null,
    concepto: d.concepto ?? TIPO_DEDUCCION[d.clave!]!,
    importe: money(dec(d.importe)),
    _importe: dec(d.importe),
  }));
  const otros = data.otros_pagos.map((o) => ({
    clave: o.clave ?? null,
    concepto: o.concepto ?? TIPO_OTRO_PAGO[o.clave!]!,
    importe: money(dec(o.importe)),
    subsidio_causado: o.subsidio_causado === undefined ? null : money(dec(o.subsidio_causado)),
    _importe: dec(o.importe),
  }));

  const totalPercepciones = sum(percepciones.map((p) => p._importe));
  const totalGravado = sum(percepciones.map((p) => p._gravado));
  const de = (set: Set<string>) =>
    sum(percepciones.filter((p) => p.clave && set.has(p.clave)).map((p) => p._importe));
  const separacion = de(PERCEPCIONES_SEPARACION);
  const jubilacion = de(PERCEPCIONES_JUBILACION);
  const isr = sum(deducciones.filter((d) => d.clave === DEDUCCION_ISR).map((d) => d._importe));
  const totalDeducciones = sum(deducciones.map((d) => d._importe));
  const totalOtros = sum(otros.map((o) => o._importe));
  const neto = totalPercepciones.plus(totalOtros).minus(totalDeducciones);
  const strip = <T extends object>(xs: T[]) =>
    xs.map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => !k.startsWith('_'))));

  const e = data.empleado;
  const periodicidad = lookup(PERIODICIDAD_PAGO, data.periodo.periodicidad)!;
  const dias = data.periodo.dias_pagados ?? diasEntre(data.periodo.inicio, data.periodo.fin);
  return {
    percepciones: strip(percepciones),
    deducciones: strip(deducciones),
    otros_pagos: strip(otros),
    total_percepciones: money(totalPercepciones),
    total_gravado: money(totalGravado),
    total_exento: money(totalPercepciones.minus(totalGravado)),
    total_sueldos: money(totalPercepciones.minus(separacion).minus(jubilacion)),
    total_separacion: separacion.isZero() ? null : money(separacion),
    total_jubilacion: jubilacion.isZero() ? null : money(jubilacion),
    total_impuestos_retenidos: money(isr),
    total_otras_deducciones: money(totalDeducciones.minus(isr)),
    total_deducciones: money(totalDeducciones),
    total_otros_pagos: money(totalOtros),
    subtotal: money(totalPercepciones.plus(totalOtros)),
    neto: money(neto),
    neto_letra: importeConLetra(neto, m),
    periodicidad: `${periodicidad} ${PERIODICIDAD_PAGO[periodicidad]}`,
    dias_pagados: new Intl.NumberFormat('es-MX', { maximumFractionDigits: 3 }).format(dias),
    dias_periodo: diasEntre(data.periodo.inicio, data.periodo.fin),
    tipo_nomina: data.tipo_nomina === 'E' ? 'Extraordinaria' : 'Ordinaria',
    antiguedad: e.fecha_ingreso ? antiguedad(e.fecha_ingreso, data.periodo.fin) : null,
    tipo_contrato: codigo(TIPO_CONTRATO, e.tipo_contrato),
    tipo_regimen: codigo(TIPO_REGIMEN, e.tipo_regimen),
    tipo_jornada: codigo(TIPO_JORNADA, e.tipo_jornada),
    riesgo_puesto: codigo(RIESGO_PUESTO, e.riesgo_puesto),
    regimen_fiscal: data.regimen_fiscal
      ? `${data.regimen_fiscal} ${REGIMEN_FISCAL[data.regimen_fiscal]?.descripcion ?? ''}`.trim()
      : null,
    cuenta: e.cuenta ? `•••• ${e.cuenta.slice(-4)}` : null,
    /** Footer of every page (CSS string for the @page margin box). */
    pie_css: cssString(
      `Recibo de nómina · ${e.nombre} · ${fechaCorta(data.periodo.inicio)} – ${fechaCorta(data.periodo.fin)}`,
    ),
  };
}
