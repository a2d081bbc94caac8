// SAT catalogues of CFDI 4.0 (catCFDI, Anexo 20) that the factura validates and prints: the keys every invoice
// uses, with their Spanish descriptions. Large catalogues (c_ClaveProdServ ~52,000 keys, c_CodigoPostal ~95,000,
// c_ClaveUnidad ~2,400) are checked by format only; c_ClaveUnidad's common keys get a printable name.
//
// `fisica`/`moral`: whether the key applies to personas físicas (13-character RFC) and/or personas morales (12).

export interface CatalogEntry {
  descripcion: string;
  fisica?: boolean;
  moral?: boolean;
}

export type Catalog = Readonly<Record<string, CatalogEntry>>;

/** c_RegimenFiscal. */
export const REGIMEN_FISCAL: Catalog = {
  '601': { descripcion: 'General de Ley Personas Morales', moral: true },
  '603': { descripcion: 'Personas Morales con Fines no Lucrativos', moral: true },
  '605': { descripcion: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', fisica: true },
  '606': { descripcion: 'Arrendamiento', fisica: true },
  '607': { descripcion: 'Régimen de Enajenación o Adquisición de Bienes', fisica: true },
  '608': { descripcion: 'Demás ingresos', fisica: true },
  '610': {
    descripcion: 'Residentes en el Extranjero sin Establecimiento Permanente en México',
    fisica: true,
    moral: true,
  },
  '611': { descripcion: 'Ingresos por Dividendos (socios y accionistas)', fisica: true },
  '612': { descripcion: 'Personas Físicas con Actividades Empresariales y Profesionales', fisica: true },
  '614': { descripcion: 'Ingresos por intereses', fisica: true },
  '615': { descripcion: 'Régimen de los ingresos por obtención de premios', fisica: true },
  '616': { descripcion: 'Sin obligaciones fiscales', fisica: true },
  '620': {
    descripcion: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
    moral: true,
  },
  '621': { descripcion: 'Incorporación Fiscal', fisica: true },
  '622': { descripcion: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', moral: true },
  '623': { descripcion: 'Opcional para Grupos de Sociedades', moral: true },
  '624': { descripcion: 'Coordinados', moral: true },
  '625': {
    descripcion: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    fisica: true,
  },
  '626': { descripcion: 'Régimen Simplificado de Confianza', fisica: true, moral: true },
};

/** c_UsoCFDI. */
export const USO_CFDI: Catalog = {
  G01: { descripcion: 'Adquisición de mercancías', fisica: true, moral: true },
  G02: { descripcion: 'Devoluciones, descuentos o bonificaciones', fisica: true, moral: true },
  G03: { descripcion: 'Gastos en general', fisica: true, moral: true },
  I01: { descripcion: 'Construcciones', fisica: true, moral: true },
  I02: { descripcion: 'Mobiliario y equipo de oficina por inversiones', fisica: true, moral: true },
  I03: { descripcion: 'Equipo de transporte', fisica: true, moral: true },
  I04: { descripcion: 'Equipo de cómputo y accesorios', fisica: true, moral: true },
  I05: { descripcion: 'Dados, troqueles, moldes, matrices y herramental', fisica: true, moral: true },
  I06: { descripcion: 'Comunicaciones telefónicas', fisica: true, moral: true },
  I07: { descripcion: 'Comunicaciones satelitales', fisica: true, moral: true },
  I08: { descripcion: 'Otra maquinaria y equipo', fisica: true, moral: true },
  D01: { descripcion: 'Honorarios médicos, dentales y gastos hospitalarios', fisica: true },
  D02: { descripcion: 'Gastos médicos por incapacidad o discapacidad', fisica: true },
  D03: { descripcion: 'Gastos funerales', fisica: true },
  D04: { descripcion: 'Donativos', fisica: true },
  D05: {
    descripcion: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)',
    fisica: true,
  },
  D06: { descripcion: 'Aportaciones voluntarias al SAR', fisica: true },
  D07: { descripcion: 'Primas por seguros de gastos médicos', fisica: true },
  D08: { descripcion: 'Gastos de transportación escolar obligatoria', fisica: true },
  D09: {
    descripcion: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones',
    fisica: true,
  },
  D10: { descripcion: 'Pagos por servicios educativos (colegiaturas)', fisica: true },
  S01: { descripcion: 'Sin efectos fiscales', fisica: true, moral: true },
  CP01: { descripcion: 'Pagos', fisica: true, moral: true },
  CN01: { descripcion: 'Nómina', fisica: true },
};

/** c_FormaPago. */
export const FORMA_PAGO: Catalog = {
  '01': { descripcion: 'Efectivo' },
  '02': { descripcion: 'Cheque nominativo' },
  '03': { descripcion: 'Transferencia electrónica de fondos' },
  '04': { descripcion: 'Tarjeta de crédito' },
  '05': { descripcion: 'Monedero electrónico' },
  '06': { descripcion: 'Dinero electrónico' },
  '08': { descripcion: 'Vales de despensa' },
  '12': { descripcion: 'Dación en pago' },
  '13': { descripcion: 'Pago por subrogación' },
  '14': { descripcion: 'Pago por consignación' },
  '15': { descripcion: 'Condonación' },
  '17': { descripcion: 'Compensación' },
  '23': { descripcion: 'Novación' },
  '24': { descripcion: 'Confusión' },
  '25': { descripcion: 'Remisión de deuda' },
  '26': { descripcion: 'Prescripción o caducidad' },
  '27': { descripcion: 'A satisfacción del acreedor' },
  '28': { descripcion: 'Tarjeta de débito' },
  '29': { descripcion: 'Tarjeta de servicios' },
  '30': { descripcion: 'Aplicación de anticipos' },
  '31': { descripcion: 'Intermediario pagos' },
  '99': { descripcion: 'Por definir' },
};

/** c_MetodoPago. */
export const METODO_PAGO: Catalog = {
  PUE: { descripcion: 'Pago en una sola exhibición' },
  PPD: { descripcion: 'Pago en parcialidades o diferido' },
};

/** c_Exportacion. */
export const EXPORTACION: Catalog = {
  '01': { descripcion: 'No aplica' },
  '02': { descripcion: 'Definitiva con clave A1' },
  '03': { descripcion: 'Temporal' },
  '04': {
    descripcion: 'Definitiva con clave distinta a A1 o cuando no existe enajenación en términos del CFF',
  },
};

/** c_ObjetoImp. */
export const OBJETO_IMP: Catalog = {
  '01': { descripcion: 'No objeto de impuesto' },
  '02': { descripcion: 'Sí objeto de impuesto' },
  '03': { descripcion: 'Sí objeto del impuesto y no obligado al desglose' },
  '04': { descripcion: 'Sí objeto del impuesto y no causa impuesto' },
  '05': { descripcion: 'Sí objeto del impuesto, IVA crédito PODEBI' },
  '06': { descripcion: 'Sí objeto del IVA, no traslado IVA' },
  '07': { descripcion: 'No traslado del IVA, sí desglose IEPS' },
  '08': { descripcion: 'No traslado del IVA, no desglose IEPS' },
};

/** ObjetoImp keys whose concept carries no Impuestos node (Anexo 20: 01, 03 and 04 must not break down taxes). */
export const OBJETO_SIN_IMPUESTOS = new Set(['01', '03', '04']);

/** c_Impuesto: code → name. */
export const IMPUESTO = { '001': 'ISR', '002': 'IVA', '003': 'IEPS' } as const;
export type ClaveImpuesto = keyof typeof IMPUESTO;

/** c_TipoDeComprobante keys an invoice may carry here (ingreso, egreso). */
export const TIPO_COMPROBANTE: Catalog = {
  I: { descripcion: 'Ingreso' },
  E: { descripcion: 'Egreso' },
};

/** c_TipoFactor. */
export const TIPOS_FACTOR = ['Tasa', 'Cuota', 'Exento'] as const;
export type TipoFactor = (typeof TIPOS_FACTOR)[number];

/** c_TasaOCuota, fixed values: IVA trasladado (Tasa). */
export const TASAS_IVA_TRASLADO = ['0', '0.08', '0.16'];
/** c_TasaOCuota, fixed values: IEPS trasladado or retenido (Tasa). */
export const TASAS_IEPS = [
  '0',
  '0.03',
  '0.06',
  '0.07',
  '0.08',
  '0.09',
  '0.25',
  '0.265',
  '0.3',
  '0.304',
  '0.5',
  '0.53',
  '1.6',
];
/** c_TasaOCuota ranges: IVA retenido 0–16 %, ISR retenido 0–35 %, IEPS cuota 0–59.1449 (per unit). */
export const RANGO_RETENCION_IVA = { min: '0', max: '0.16' };
export const RANGO_RETENCION_ISR = { min: '0', max: '0.35' };
export const RANGO_CUOTA_IEPS = { min: '0', max: '59.1449' };

/** Generic RFCs: público en general (national) and extranjero. */
export const RFC_PUBLICO_GENERAL = 'XAXX010101000';
export const RFC_EXTRANJERO = 'XEXX010101000';

/** A few c_ClaveUnidad keys and their names (printing; every key of the right shape is accepted). */
export const CLAVE_UNIDAD: Readonly<Record<string, string>> = {
  H87: 'Pieza',
  E48: 'Unidad de servicio',
  ACT: 'Actividad',
  HUR: 'Hora',
  DAY: 'Día',
  MON: 'Mes',
  ANN: 'Año',
  KGM: 'Kilogramo',
  GRM: 'Gramo',
  LTR: 'Litro',
  MTR: 'Metro',
  MTK: 'Metro cuadrado',
  MTQ: 'Metro cúbico',
  XBX: 'Caja',
  XPK: 'Paquete',
  KT: 'Kit',
  SET: 'Conjunto',
  C62: 'Uno',
  EA: 'Elemento',
  XUN: 'Unidad',
  A9: 'Tarifa',
  MIN: 'Minuto',
  WEE: 'Semana',
};

/** Unit words callers write (unidad) → c_ClaveUnidad, for the XML when clave_unidad is not given. */
const UNIDAD_A_CLAVE: [RegExp, string][] = [
  [/^(servicios?|serv\.?)$/i, 'E48'],
  [/^(horas?|hrs?\.?|h)$/i, 'HUR'],
  [/^(piezas?|pzas?\.?|pz)$/i, 'H87'],
  [/^(d[ií]as?)$/i, 'DAY'],
  [/^(mes(es)?)$/i, 'MON'],
  [/^(a[ñn]os?)$/i, 'ANN'],
  [/^(kilo(gramo)?s?|kgs?)$/i, 'KGM'],
  [/^(gramos?|g|grs?)$/i, 'GRM'],
  [/^(litros?|l|lts?)$/i, 'LTR'],
  [/^(metros?|m|mts?)$/i, 'MTR'],
  [/^(cajas?)$/i, 'XBX'],
  [/^(paquetes?)$/i, 'XPK'],
  [/^(actividad(es)?)$/i, 'ACT'],
  [/^(licencias?|unidad(es)?)$/i, 'H87'],
];

/** c_ClaveUnidad for a unit word: known words map to their key; anything else is a piece (H87). */
export function claveUnidadDe(unidad: string | undefined): string {
  const u = (unidad ?? '').trim();
  for (const [re, clave] of UNIDAD_A_CLAVE) if (re.test(u)) return clave;
  return 'H87';
}

/** "601 — General de Ley Personas Morales" for printing; the bare key when unknown. */
export function conDescripcion(catalog: Catalog, clave: string | undefined): string | undefined {
  if (!clave) return undefined;
  const e = catalog[clave];
  return e ? `${clave} — ${e.descripcion}` : clave;
}
