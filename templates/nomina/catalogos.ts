// SAT catalogues of the CFDI de nómina 1.2 complement (catCFDI / catNomina) that the payroll receipt prints:
// the code and the short Spanish name a printed representation shows next to it. Codes are validated against these
// tables where the table is complete here (periodicidad, contrato, régimen, jornada, riesgo, otros pagos); for
// percepciones and deducciones any three-digit code in SAT's range is accepted and the known ones are named.

/** c_PeriodicidadPago. */
export const PERIODICIDAD_PAGO: Record<string, string> = {
  '01': 'Diario',
  '02': 'Semanal',
  '03': 'Catorcenal',
  '04': 'Quincenal',
  '05': 'Mensual',
  '06': 'Bimestral',
  '07': 'Unidad obra',
  '08': 'Comisión',
  '09': 'Precio alzado',
  '10': 'Decenal',
  '99': 'Otra periodicidad',
};

/** c_TipoContrato. */
export const TIPO_CONTRATO: Record<string, string> = {
  '01': 'Contrato de trabajo por tiempo indeterminado',
  '02': 'Contrato de trabajo para obra determinada',
  '03': 'Contrato de trabajo por tiempo determinado',
  '04': 'Contrato de trabajo por temporada',
  '05': 'Contrato de trabajo sujeto a prueba',
  '06': 'Contrato de trabajo con capacitación inicial',
  '07': 'Modalidad de contratación por pago de hora laborada',
  '08': 'Modalidad de trabajo por comisión laboral',
  '09': 'Modalidades de contratación donde no existe relación de trabajo',
  '10': 'Jubilación, pensión, retiro',
  '99': 'Otro contrato',
};

/** c_TipoRegimen (short names). */
export const TIPO_REGIMEN: Record<string, string> = {
  '02': 'Sueldos',
  '03': 'Jubilados',
  '04': 'Pensionados',
  '05': 'Asimilados miembros de sociedades cooperativas de producción',
  '06': 'Asimilados integrantes de sociedades y asociaciones civiles',
  '07': 'Asimilados miembros de consejos',
  '08': 'Asimilados comisionistas',
  '09': 'Asimilados honorarios',
  '10': 'Asimilados acciones',
  '11': 'Asimilados otros',
  '12': 'Jubilados o pensionados',
  '13': 'Indemnización o separación',
  '99': 'Otro régimen',
};

/** c_TipoJornada. */
export const TIPO_JORNADA: Record<string, string> = {
  '01': 'Diurna',
  '02': 'Nocturna',
  '03': 'Mixta',
  '04': 'Por hora',
  '05': 'Reducida',
  '06': 'Continuada',
  '07': 'Partida',
  '08': 'Por turnos',
  '99': 'Otra jornada',
};

/** c_RiesgoPuesto. */
export const RIESGO_PUESTO: Record<string, string> = {
  '1': 'Clase I',
  '2': 'Clase II',
  '3': 'Clase III',
  '4': 'Clase IV',
  '5': 'Clase V',
  '99': 'No aplica',
};

/** c_TipoPercepcion: the codes in use (001–053; a few numbers in between are retired). */
export const TIPO_PERCEPCION: Record<string, string> = {
  '001': 'Sueldos, salarios, rayas y jornales',
  '002': 'Gratificación anual (aguinaldo)',
  '003': 'Participación de los trabajadores en las utilidades (PTU)',
  '004': 'Reembolso de gastos médicos, dentales y hospitalarios',
  '005': 'Fondo de ahorro',
  '006': 'Caja de ahorro',
  '009': 'Contribuciones a cargo del trabajador pagadas por el patrón',
  '010': 'Premios por puntualidad',
  '011': 'Prima de seguro de vida',
  '012': 'Seguro de gastos médicos mayores',
  '013': 'Cuotas sindicales pagadas por el patrón',
  '014': 'Subsidios por incapacidad',
  '015': 'Becas para trabajadores y/o hijos',
  '019': 'Horas extra',
  '020': 'Prima dominical',
  '021': 'Prima vacacional',
  '022': 'Prima por antigüedad',
  '023': 'Pagos por separación',
  '024': 'Seguro de retiro',
  '025': 'Indemnizaciones',
  '026': 'Reembolso por funeral',
  '027': 'Cuotas de seguridad social pagadas por el patrón',
  '028': 'Comisiones',
  '029': 'Vales de despensa',
  '030': 'Vales de restaurante',
  '031': 'Vales de gasolina',
  '032': 'Vales de ropa',
  '033': 'Ayuda para renta',
  '034': 'Ayuda para artículos escolares',
  '035': 'Ayuda para anteojos',
  '036': 'Ayuda para transporte',
  '037': 'Ayuda para gastos de funeral',
  '038': 'Otros ingresos por salarios',
  '039': 'Jubilaciones, pensiones o haberes de retiro',
  '044': 'Jubilaciones, pensiones o haberes de retiro en parcialidades',
  '045': 'Ingresos en acciones o títulos valor que representan bienes',
  '046': 'Ingresos asimilados a salarios',
  '047': 'Alimentación',
  '048': 'Habitación',
  '049': 'Premios por asistencia',
  '050': 'Viáticos',
};

/** Percepciones that SAT totals as separation/indemnity (TotalSeparacionIndemnizacion) or retirement. */
export const PERCEPCIONES_SEPARACION = new Set(['022', '023', '025']);
export const PERCEPCIONES_JUBILACION = new Set(['039', '044']);

/** c_TipoDeduccion: the common codes (SAT's catalogue runs from 001 to 107; the rest are adjustments). */
export const TIPO_DEDUCCION: Record<string, string> = {
  '001': 'Seguridad social',
  '002': 'ISR',
  '003': 'Aportaciones a retiro, cesantía en edad avanzada y vejez',
  '004': 'Otros',
  '005': 'Aportaciones a fondo de vivienda',
  '006': 'Descuento por incapacidad',
  '007': 'Pensión alimenticia',
  '008': 'Renta',
  '009': 'Préstamos del Fondo Nacional de la Vivienda para los Trabajadores',
  '010': 'Pago por crédito de vivienda',
  '011': 'Pago de abonos INFONACOT',
  '012': 'Anticipo de salarios',
  '013': 'Pagos hechos con exceso al trabajador',
  '014': 'Errores',
  '015': 'Pérdidas',
  '016': 'Averías',
  '017': 'Adquisición de artículos producidos por la empresa',
  '018': 'Cuotas para sociedades cooperativas y cajas de ahorro',
  '019': 'Cuotas sindicales',
  '020': 'Ausencia (ausentismo)',
  '021': 'Cuotas obrero patronales',
  '022': 'Impuestos locales',
  '023': 'Aportaciones voluntarias',
};
export const DEDUCCION_MAX = 107;
/** The deduction SAT totals as "impuestos retenidos" (TotalImpuestosRetenidos): ISR. */
export const DEDUCCION_ISR = '002';

/** c_TipoOtroPago. */
export const TIPO_OTRO_PAGO: Record<string, string> = {
  '001': 'Reintegro de ISR pagado en exceso',
  '002': 'Subsidio para el empleo',
  '003': 'Viáticos',
  '004': 'Aplicación de saldo a favor por compensación anual',
  '005': 'Reintegro de ISR retenido en exceso de ejercicio anterior',
  '006': 'Alimentos en bienes',
  '007': 'ISR ajustado por subsidio',
  '008': 'Subsidio efectivamente entregado que no correspondía',
  '009': 'Reembolso de descuentos efectuados para el crédito de vivienda',
  '999': 'Pagos distintos a los listados',
};
export const OTRO_PAGO_SUBSIDIO = '002';

/** Lower case without accents, for matching names ("quincenal", "Quincenal", "QUINCENAL"). */
export function plain(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** A catalogue code from its code or its name; undefined when neither matches. */
export function lookup(catalogue: Record<string, string>, value: string): string | undefined {
  const v = value.trim();
  if (v in catalogue) return v;
  const byName = Object.entries(catalogue).find(([, name]) => plain(name) === plain(v));
  return byName?.[0];
}
