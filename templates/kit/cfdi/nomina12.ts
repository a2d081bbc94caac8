// The Complemento de Nómina 1.2 of a CFDI 4.0 (nomina12.xsd, namespace http://www.sat.gob.mx/nomina12), read from
// the element ./leer.ts parsed: what the printed payroll receipt shows. Amounts are kept as written (text); the
// receipt prints them and ../../nomina/desde-xml.ts re-checks the totals. A missing attribute the receipt needs
// (and nomina12.xsd requires) is a problem naming it, like the rest of the CFDI.
import {
  atributos,
  child,
  children,
  CfdiXmlError,
  NS_NOMINA12,
  type CfdiXmlProblem,
  type XmlNodo,
} from './leer';

export interface NominaLeida {
  version: string;
  tipoNomina: string;
  fechaPago: string;
  fechaInicialPago: string;
  fechaFinalPago: string;
  numDiasPagados: string;
  totalPercepciones?: string;
  totalDeducciones?: string;
  totalOtrosPagos?: string;
  emisor?: { registroPatronal?: string; curp?: string; rfcPatronOrigen?: string };
  receptor: {
    curp: string;
    numSeguridadSocial?: string;
    fechaInicioRelLaboral?: string;
    antiguedad?: string;
    tipoContrato: string;
    sindicalizado?: string;
    tipoJornada?: string;
    tipoRegimen: string;
    numEmpleado: string;
    departamento?: string;
    puesto?: string;
    riesgoPuesto?: string;
    periodicidadPago: string;
    banco?: string;
    cuentaBancaria?: string;
    salarioBaseCotApor?: string;
    salarioDiarioIntegrado?: string;
    claveEntFed: string;
  };
  percepciones?: {
    totalSueldos?: string;
    totalSeparacionIndemnizacion?: string;
    totalJubilacionPensionRetiro?: string;
    totalGravado: string;
    totalExento: string;
    lineas: { tipo: string; clave: string; concepto: string; gravado: string; exento: string }[];
  };
  deducciones?: {
    totalOtrasDeducciones?: string;
    totalImpuestosRetenidos?: string;
    lineas: { tipo: string; clave: string; concepto: string; importe: string }[];
  };
  otrosPagos: { tipo: string; clave: string; concepto: string; importe: string; subsidioCausado?: string }[];
}

/** The Nómina 1.2 among a CFDI's complements (CfdiLeido.complementoNodos); throws CfdiXmlError when unreadable. */
export function leerNomina12(complementos: XmlNodo[]): NominaLeida | undefined {
  const el = complementos.find((x) => x.uri === NS_NOMINA12 && x.local === 'Nomina');
  if (!el) return undefined;
  const problems: CfdiXmlProblem[] = [];
  const n = atributos(el, 'Nomina', problems);
  const version = n.req('Version');
  if (version && version !== '1.2')
    problems.push({ msg: `Nomina@Version must be 1.2, not '${version}'`, type: 'cfdi_version' });
  const emisorEl = child(el, NS_NOMINA12, 'Emisor');
  const receptorEl = child(el, NS_NOMINA12, 'Receptor');
  if (!receptorEl) problems.push({ msg: 'Nomina/Receptor is required', type: 'cfdi_missing' });
  const r = atributos(
    receptorEl ?? { uri: NS_NOMINA12, local: 'Receptor', attrs: {}, children: [] },
    'Nomina/Receptor',
    problems,
  );
  const e = emisorEl && atributos(emisorEl, 'Nomina/Emisor', problems);

  const percEl = child(el, NS_NOMINA12, 'Percepciones');
  const p = percEl && atributos(percEl, 'Nomina/Percepciones', problems);
  const dedEl = child(el, NS_NOMINA12, 'Deducciones');
  const d = dedEl && atributos(dedEl, 'Nomina/Deducciones', problems);

  const leida: NominaLeida = {
    version,
    tipoNomina: n.req('TipoNomina'),
    fechaPago: n.req('FechaPago'),
    fechaInicialPago: n.req('FechaInicialPago'),
    fechaFinalPago: n.req('FechaFinalPago'),
    numDiasPagados: n.req('NumDiasPagados'),
    totalPercepciones: n.opt('TotalPercepciones'),
    totalDeducciones: n.opt('TotalDeducciones'),
    totalOtrosPagos: n.opt('TotalOtrosPagos'),
    emisor: e && {
      registroPatronal: e.opt('RegistroPatronal'),
      curp: e.opt('Curp'),
      rfcPatronOrigen: e.opt('RfcPatronOrigen'),
    },
    receptor: {
      curp: r.req('Curp'),
      numSeguridadSocial: r.opt('NumSeguridadSocial'),
      fechaInicioRelLaboral: r.opt('FechaInicioRelLaboral'),
      antiguedad: r.opt('Antigüedad'),
      tipoContrato: r.req('TipoContrato'),
      sindicalizado: r.opt('Sindicalizado'),
      tipoJornada: r.opt('TipoJornada'),
      tipoRegimen: r.req('TipoRegimen'),
      numEmpleado: r.req('NumEmpleado'),
      departamento: r.opt('Departamento'),
      puesto: r.opt('Puesto'),
      riesgoPuesto: r.opt('RiesgoPuesto'),
      periodicidadPago: r.req('PeriodicidadPago'),
      banco: r.opt('Banco'),
      cuentaBancaria: r.opt('CuentaBancaria'),
      salarioBaseCotApor: r.opt('SalarioBaseCotApor'),
      salarioDiarioIntegrado: r.opt('SalarioDiarioIntegrado'),
      claveEntFed: r.req('ClaveEntFed'),
    },
    percepciones: p && {
      totalSueldos: p.opt('TotalSueldos'),
      totalSeparacionIndemnizacion: p.opt('TotalSeparacionIndemnizacion'),
      totalJubilacionPensionRetiro: p.opt('TotalJubilacionPensionRetiro'),
      totalGravado: p.req('TotalGravado'),
      totalExento: p.req('TotalExento'),
      lineas: children(percEl, NS_NOMINA12, 'Percepcion').map((x, i) => {
        const a = atributos(x, `Nomina/Percepcion[${i + 1}]`, problems);
        return {
          tipo: a.req('TipoPercepcion'),
          clave: a.req('Clave'),
          concepto: a.req('Concepto'),
          gravado: a.req('ImporteGravado'),
          exento: a.req('ImporteExento'),
        };
      }),
    },
    deducciones: d && {
      totalOtrasDeducciones: d.opt('TotalOtrasDeducciones'),
      totalImpuestosRetenidos: d.opt('TotalImpuestosRetenidos'),
      lineas: children(dedEl, NS_NOMINA12, 'Deduccion').map((x, i) => {
        const a = atributos(x, `Nomina/Deduccion[${i + 1}]`, problems);
        return {
          tipo: a.req('TipoDeduccion'),
          clave: a.req('Clave'),
          concepto: a.req('Concepto'),
          importe: a.req('Importe'),
        };
      }),
    },
    otrosPagos: children(child(el, NS_NOMINA12, 'OtrosPagos'), NS_NOMINA12, 'OtroPago').map((x, i) => {
      const a = atributos(x, `Nomina/OtroPago[${i + 1}]`, problems);
      const subsidio = child(x, NS_NOMINA12, 'SubsidioAlEmpleo');
      return {
        tipo: a.req('TipoOtroPago'),
        clave: a.req('Clave'),
        concepto: a.req('Concepto'),
        importe: a.req('Importe'),
        subsidioCausado:
          subsidio &&
          atributos(subsidio, `Nomina/OtroPago[${i + 1}]/SubsidioAlEmpleo`, problems).req('SubsidioCausado'),
      };
    }),
  };
  if (problems.length) throw new CfdiXmlError(problems);
  return leida;
}
