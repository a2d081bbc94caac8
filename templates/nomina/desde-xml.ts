// nomina from a CFDI 4.0 with Complemento de Nómina 1.2 (POST /v1/render with `cfdi_xml` and template nomina): the
// printed receipt of the caller's own (usually stamped) XML. The complement is read into the template's data shape
// and checked by the template's own schema (RFC, CURP, catalogues: a failure is a 400 at body.cfdi_xml naming the
// XML attribute's field); the view adds the TimbreFiscalDigital (UUID, QR, sellos, cadena original). The totals the
// XML states are re-checked against its lines and printed as the XML says: a mismatch is a warning band and the
// X-CFDI-Avisos header, never corrected, as for facturas.
import { CfdiXmlError, leerCfdi, NS_NOMINA12, type CfdiLeido } from '../kit/cfdi/leer';
import { desconocidos, seccionesComplementos } from '../kit/cfdi/complementos';
import { asciiHeader } from '../kit/cfdi/verificar';
import { leerNomina12, type NominaLeida } from '../kit/cfdi/nomina12';
import { vistaTimbre } from '../kit/cfdi/timbre';
import { avisoHeader, type Discrepancia } from '../kit/cfdi/verificar';
import { importeConLetra } from '../kit/con-letra';
import { dec, moneyText, sum, type Dec } from '../kit/money';
import type { XmlDocument } from '../kit/template-types';
import { calcNomina } from './calc';
import { DEDUCCION_ISR } from './catalogos';
import { schemaDesdeXml, type NominaData } from './schema';

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));

/** The complement in the template's data shape (before its schema: numbers as the XML writes them). */
function datos(c: CfdiLeido, n: NominaLeida): Record<string, unknown> {
  const r = n.receptor;
  return {
    empresa: c.emisor.nombre,
    rfc_empresa: c.emisor.rfc,
    registro_patronal: n.emisor?.registroPatronal,
    regimen_fiscal: c.emisor.regimenFiscal,
    lugar_expedicion: c.lugarExpedicion,
    folio: [c.serie, c.folio].filter(Boolean).join('-') || undefined,
    tipo_nomina: n.tipoNomina,
    empleado: {
      nombre: c.receptor.nombre,
      rfc: c.receptor.rfc,
      curp: r.curp,
      nss: r.numSeguridadSocial,
      numero: r.numEmpleado,
      puesto: r.puesto,
      departamento: r.departamento,
      fecha_ingreso: r.fechaInicioRelLaboral,
      tipo_contrato: r.tipoContrato,
      tipo_regimen: r.tipoRegimen,
      tipo_jornada: r.tipoJornada,
      riesgo_puesto: r.riesgoPuesto,
      salario_diario_integrado: num(r.salarioDiarioIntegrado),
      banco: r.banco ? `Banco ${r.banco}` : undefined,
      cuenta: r.cuentaBancaria,
    },
    periodo: {
      inicio: n.fechaInicialPago,
      fin: n.fechaFinalPago,
      periodicidad: r.periodicidadPago,
      dias_pagados: num(n.numDiasPagados),
    },
    fecha_pago: n.fechaPago,
    moneda: c.moneda,
    percepciones: (n.percepciones?.lineas ?? []).map((p) => ({
      clave: p.tipo,
      concepto: p.concepto,
      gravado: num(p.gravado),
      exento: num(p.exento),
    })),
    deducciones: (n.deducciones?.lineas ?? []).map((d) => ({
      clave: d.tipo,
      concepto: d.concepto,
      importe: num(d.importe),
    })),
    otros_pagos: n.otrosPagos.map((o) => ({
      clave: o.tipo,
      concepto: o.concepto,
      importe: num(o.importe),
      ...(o.subsidioCausado !== undefined ? { subsidio_causado: num(o.subsidioCausado) } : {}),
    })),
  };
}

/** The totals the XML states against what its lines give (SAT's Nómina 1.2 and CFDI rules for tipo N). */
function verificar(c: CfdiLeido, n: NominaLeida): Discrepancia[] {
  const out: Discrepancia[] = [];
  const check = (donde: string, dice: string | undefined, esperado: Dec) => {
    if (dice !== undefined && !dec(dice).equals(esperado))
      out.push({ donde, dice, esperado: esperado.toFixed(2) });
  };
  const lineas = n.percepciones?.lineas ?? [];
  const gravado = sum(lineas.map((p) => dec(p.gravado)));
  const exento = sum(lineas.map((p) => dec(p.exento)));
  const deducciones = n.deducciones?.lineas ?? [];
  const isr = sum(deducciones.filter((d) => d.tipo === DEDUCCION_ISR).map((d) => dec(d.importe)));
  const totalDeducciones = sum(deducciones.map((d) => dec(d.importe)));
  const otros = sum(n.otrosPagos.map((o) => dec(o.importe)));
  check('Percepciones@TotalGravado', n.percepciones?.totalGravado, gravado);
  check('Percepciones@TotalExento', n.percepciones?.totalExento, exento);
  check('Nomina@TotalPercepciones', n.totalPercepciones, gravado.plus(exento));
  check('Deducciones@TotalImpuestosRetenidos', n.deducciones?.totalImpuestosRetenidos, isr);
  check(
    'Deducciones@TotalOtrasDeducciones',
    n.deducciones?.totalOtrasDeducciones,
    totalDeducciones.minus(isr),
  );
  check('Nomina@TotalDeducciones', n.totalDeducciones, totalDeducciones);
  check('Nomina@TotalOtrosPagos', n.totalOtrosPagos, otros);
  const subtotal = gravado.plus(exento).plus(otros);
  check('Comprobante@SubTotal', c.subTotal, subtotal);
  check('Comprobante@Descuento', c.descuento ?? '0', totalDeducciones);
  check('Comprobante@Total', c.total, subtotal.minus(totalDeducciones));
  return out;
}

export function nominaDesdeXml(xml: string): XmlDocument {
  const c = leerCfdi(xml);
  if (c.tipoDeComprobante !== 'N' || !c.complementos.includes(NS_NOMINA12))
    throw new CfdiXmlError([
      {
        msg: `The nomina template reads a CFDI de tipo N with Complemento de Nómina 1.2; this one is tipo ${c.tipoDeComprobante}${c.complementos.includes(NS_NOMINA12) ? '' : ' without it'}: send it with template 'factura'`,
        type: 'cfdi_unsupported',
      },
    ]);
  const n = leerNomina12(c.complementoNodos)!;
  const parsed = schemaDesdeXml.safeParse(datos(c, n));
  if (!parsed.success)
    throw new CfdiXmlError(
      parsed.error.issues.map((i) => ({
        msg: `Nómina 1.2: ${i.path.join('.')}: ${i.message}`,
        type: 'cfdi_invalid',
      })),
    );
  const data: NominaData = parsed.data;
  const discrepancias = verificar(c, n);
  const timbre = vistaTimbre(c);
  // Any other complement is printed too (never dropped); an unknown one is named by the response header.
  const otros = c.complementoNodos.filter((x) => x.uri !== NS_NOMINA12);
  const view = {
    ...data,
    calc: {
      ...calcNomina(data),
      timbre,
      avisos: discrepancias.map((d) => `${d.donde}: el XML dice ${d.dice}; según sus líneas, ${d.esperado}`),
      // The net pay printed is the XML's Total, as written (a mismatch is in avisos, never corrected).
      neto: moneyText(dec(c.total), data.moneda),
      neto_letra: importeConLetra(dec(c.total), data.moneda),
      fecha_emision: c.fecha,
      uso_cfdi: c.receptor.usoCfdi,
      complementos: seccionesComplementos(otros),
    },
  };
  const bytes = Buffer.from(xml, 'utf8');
  return {
    data: { ...data, uuid: timbre?.uuid },
    view,
    title: `Recibo de nómina — ${data.empleado.nombre} — ${data.periodo.inicio} a ${data.periodo.fin}`,
    warnings: discrepancias.length ? [avisoHeader(discrepancias)] : [],
    ...(desconocidos(otros).length ? { unknownComplements: desconocidos(otros).map(asciiHeader) } : {}),
    attachments: [{ name: 'nomina.xml', bytes, description: 'el CFDI de nómina tal como se recibió (XML)' }],
    embedded: { name: 'nomina.xml', bytes, mimeType: 'text/xml' },
  };
}
