// Data of the `factura` template: the printed representation of a CFDI 4.0 invoice.
//
// The contract's shape is accepted exactly as shown (empresa, cliente, items[{concepto, cantidad, precio}],
// moneda), and so is the shape before issue #6 (rfc_emisor, rfc_cliente, serie, folio, fecha, tasa_iva,
// forma_pago, metodo_pago, notas, items[].unidad/clave). Every CFDI 4.0 field is optional on top: emisor and
// receptor data (RFC, régimen fiscal, códigos postales, uso CFDI), payment, exportación, tipo de cambio, per-item
// SAT keys, objeto de impuesto, descuentos, traslados and retenciones, and the timbre (UUID, certificates, sellos,
// fecha de timbrado, RFC del PAC) of an invoice already stamped.
//
// Checks, each a 400 item at its field: RFC shapes (and persona física/moral against régimen and uso CFDI),
// catalogue keys (c_RegimenFiscal, c_UsoCFDI, c_FormaPago, c_MetodoPago, c_Exportacion, c_ObjetoImp, c_Moneda,
// c_Impuesto, c_TasaOCuota), UUID and certificate numbers, generic-RFC rules, tipo de cambio with a foreign
// currency, PUE/PPD against forma de pago 99, the timbre's fields together, and the arithmetic: importes and totals
// the caller sends must equal the computed ones to the centavo (templates/kit/cfdi/calc.ts).
import { z } from 'zod';
import {
  EXPORTACION,
  FORMA_PAGO,
  METODO_PAGO,
  OBJETO_IMP,
  OBJETO_SIN_IMPUESTOS,
  RANGO_CUOTA_IEPS,
  RANGO_RETENCION_ISR,
  RANGO_RETENCION_IVA,
  REGIMEN_FISCAL,
  RFC_PUBLICO_GENERAL,
  TASAS_IEPS,
  TASAS_IVA_TRASLADO,
  TIPO_COMPROBANTE,
  USO_CFDI,
  type Catalog,
  type ClaveImpuesto,
} from '../kit/cfdi/catalogos';
import { calcularCfdi, type ConceptoInput, type RetencionInput, type TrasladoInput } from '../kit/cfdi/calc';
import { checkRfc } from '../kit/cfdi/rfc';
import { currencyDigits, Dec, dec, isCurrency, roundMoney } from '../kit/money';
import { codigoPostal, customIssue, rfcCfdi, texto, textoOpcional } from '../kit/schema-helpers';

// ---- field builders ------------------------------------------------------------------------------------------

const issue = (message: string, type: string) => ({ message, params: { type } });

/** A number with at most `max` decimals (CFDI amounts: 6). */
function numero(description: string, opts: { positive?: boolean; max?: number } = {}) {
  const base = opts.positive ? z.number().finite().positive() : z.number().finite().nonnegative();
  return base
    .refine(
      (n) => dec(n).decimalPlaces() <= (opts.max ?? 6),
      issue(`At most ${opts.max ?? 6} decimals`, 'too_many_decimals'),
    )
    .describe(description);
}

/**
 * The contract's `cantidad` and `precio` are plain JSON numbers: a client computing them in binary floating point
 * sends 0.30000000000000004 for 0.1 + 0.2. They are rounded half up to CFDI's 6 decimals (what the XML carries)
 * instead of being refused.
 */
function numeroContrato(description: string, opts: { positive?: boolean } = {}) {
  const base = opts.positive ? z.number().finite().positive() : z.number().finite().nonnegative();
  return base
    .transform((n) => Number(dec(n).toDecimalPlaces(6, Dec.ROUND_HALF_UP).toString()))
    .refine((n) => !opts.positive || n > 0, issue('Must be at least 0.000001 (6 decimals)', 'too_small'))
    .describe(description);
}

/**
 * A key of a SAT catalogue. The key alone ("03") or followed by its description ("03 Transferencia electrónica")
 * is accepted; the key is kept and the catalogue's description printed.
 */
function clave(catalog: Catalog, nombre: string, description: string) {
  const keys = Object.keys(catalog);
  const sample = keys.slice(0, 4).join(', ');
  return z
    .string()
    .trim()
    .transform((s) => (s.split(/[\s\-–—:]+/)[0] ?? '').toUpperCase())
    .refine((s) => s in catalog, issue(`Not a key of ${nombre}: use one of ${sample}…`, 'catalog_key'))
    .describe(description);
}

const IMPUESTO_POR_NOMBRE: Record<string, ClaveImpuesto> = {
  ISR: '001',
  IVA: '002',
  IEPS: '003',
  '001': '001',
  '002': '002',
  '003': '003',
};

const impuesto = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine(
    (s) => s in IMPUESTO_POR_NOMBRE,
    issue('Not a key of c_Impuesto: use ISR (001), IVA (002) or IEPS (003)', 'catalog_key'),
  )
  .transform((s) => IMPUESTO_POR_NOMBRE[s]!)
  .describe('Impuesto: ISR, IVA o IEPS (o su clave c_Impuesto 001, 002, 003)');

const tasaIva = z
  .union([z.literal([0, 0.08, 0.16]), z.literal('exento')])
  .describe('Tasa de IVA trasladado: 0.16 (general), 0.08 (región fronteriza), 0 o "exento"');

export const traslado = z.object({
  impuesto,
  tipo_factor: z
    .enum(['Tasa', 'Cuota', 'Exento'])
    .default('Tasa')
    .describe('Tipo de factor (c_TipoFactor): Tasa, Cuota o Exento. Por omisión Tasa'),
  tasa_o_cuota: numero('Tasa (0.16 = 16 %) o cuota por unidad; no se indica si es Exento').optional(),
});

export const retencion = z.object({
  impuesto,
  tipo_factor: z
    .enum(['Tasa', 'Cuota'])
    .default('Tasa')
    .describe('Tipo de factor (c_TipoFactor): Tasa o Cuota. Por omisión Tasa'),
  tasa_o_cuota: numero('Tasa retenida (0.10 = 10 %; IVA 2/3 partes: 0.106667)'),
});

const UUID_RE = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const FECHA_HORA_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function calendarOk(s: string, requireTime: boolean): boolean {
  const m = FECHA_HORA_RE.exec(s);
  if (!m || (requireTime && m[4] === undefined)) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  const timeOk = m[4] === undefined || (+m[4] < 24 && +m[5]! < 60 && +(m[6] ?? 0) < 60);
  return d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]! && timeOk;
}

function fechaHora(description: string, requireTime = false) {
  return z
    .string()
    .trim()
    .refine(
      (s) => calendarOk(s, requireTime),
      issue(
        requireTime
          ? 'Write the date and time as YYYY-MM-DDThh:mm:ss, e.g. 2024-03-15T10:42:07'
          : 'Write the date as YYYY-MM-DD or YYYY-MM-DDThh:mm:ss, e.g. 2024-03-15T10:42:07',
        'date_format',
      ),
    )
    .describe(description);
}

const base64 = (description: string) =>
  z
    .string()
    .trim()
    .max(2000)
    .refine(
      (s) => /^[A-Za-z0-9+/]{8,}={0,2}$/.test(s),
      issue('A sello is base64 text (A–Z, a–z, 0–9, +, / and = at the end)', 'base64_format'),
    )
    .describe(description);

const noCertificado = (description: string) =>
  z
    .string()
    .trim()
    .refine(
      (s) => /^\d{20}$/.test(s),
      issue('A certificate number has 20 digits', 'certificate_number_format'),
    )
    .describe(description);

const monedaCfdi = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .superRefine((s, ctx) => {
    if (s === 'XXX')
      ctx.addIssue({
        code: 'custom',
        message: 'XXX (no currency) is only for CFDI de traslado or de pago; an invoice has a currency',
        params: { type: 'catalog_key' },
      });
    else if (!isCurrency(s))
      ctx.addIssue({
        code: 'custom',
        message: 'Unknown currency code: use an ISO 4217 code (c_Moneda) such as MXN, USD or EUR',
        params: { type: 'catalog_key' },
      });
  })
  .default('MXN')
  .describe('Moneda, código ISO 4217 (c_Moneda: MXN, USD, EUR…). Por omisión MXN');

// ---- schema --------------------------------------------------------------------------------------------------

export const TASAS_IVA = [0, 0.08, 0.16] as const;

export const item = z.object({
  concepto: texto('Descripción del producto o servicio', 1000),
  cantidad: numeroContrato('Cantidad (mayor que cero; se redondea a 6 decimales)', { positive: true }),
  precio: numeroContrato('Valor unitario antes de impuestos (se redondea a 6 decimales)'),
  unidad: textoOpcional('Unidad de medida como se imprime (pieza, hora, servicio…)', 20),
  clave: z
    .string()
    .trim()
    .refine(
      (s) => /^\d{8}$/.test(s),
      issue('A clave de producto o servicio (c_ClaveProdServ) has 8 digits, e.g. 81112100', 'clave_format'),
    )
    .optional()
    .describe('Clave de producto o servicio del SAT (c_ClaveProdServ, 8 dígitos). Por omisión 01010101'),
  clave_unidad: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine(
      (s) => /^[A-Z0-9]{1,3}$/.test(s),
      issue(
        'A clave de unidad (c_ClaveUnidad) has 1 to 3 letters or digits, e.g. H87, E48, HUR',
        'clave_format',
      ),
    )
    .optional()
    .describe(
      'Clave de unidad del SAT (c_ClaveUnidad: H87 pieza, E48 servicio, HUR hora…); se deduce de unidad',
    ),
  no_identificacion: textoOpcional('Número de parte, SKU o identificador interno', 100),
  objeto_imp: clave(OBJETO_IMP, 'c_ObjetoImp', 'Objeto de impuesto (c_ObjetoImp). Por omisión 02').optional(),
  descuento: numero('Descuento del concepto (importe, no porcentaje)').optional(),
  tasa_iva: tasaIva.optional(),
  traslados: z
    .array(traslado)
    .max(5)
    .optional()
    .describe('Impuestos trasladados del concepto (sustituyen a la tasa de IVA): IVA, IEPS'),
  retenciones: z
    .array(retencion)
    .max(5)
    .optional()
    .describe('Impuestos retenidos del concepto (sustituyen a las retenciones generales): ISR, IVA'),
  importe: numero('Importe (cantidad × valor unitario), si se envía se comprueba').optional(),
});

const shape = z.object({
  empresa: texto('Nombre o razón social de quien emite la factura', 300),
  cliente: texto('Nombre o razón social de quien recibe la factura', 300),
  items: z.array(item).min(1).max(500).describe('Conceptos facturados (al menos uno)'),
  moneda: monedaCfdi,
  tipo_comprobante: clave(
    TIPO_COMPROBANTE,
    'c_TipoDeComprobante (I, E)',
    'Tipo de comprobante: I ingreso (por omisión) o E egreso',
  ).default('I'),
  serie: textoOpcional('Serie de la factura', 25),
  folio: textoOpcional('Folio de la factura', 40),
  fecha: fechaHora('Fecha (y hora) de emisión: AAAA-MM-DD o AAAA-MM-DDThh:mm:ss').optional(),
  rfc_emisor: rfcCfdi('RFC del emisor').optional(),
  regimen_fiscal_emisor: clave(
    REGIMEN_FISCAL,
    'c_RegimenFiscal',
    'Régimen fiscal del emisor (c_RegimenFiscal)',
  ).optional(),
  lugar_expedicion: codigoPostal('Lugar de expedición: código postal del emisor').optional(),
  domicilio_emisor: textoOpcional('Domicilio del emisor (solo se imprime)', 300),
  rfc_cliente: rfcCfdi('RFC del receptor (XAXX010101000 público en general)').optional(),
  regimen_fiscal_receptor: clave(
    REGIMEN_FISCAL,
    'c_RegimenFiscal',
    'Régimen fiscal del receptor (c_RegimenFiscal)',
  ).optional(),
  domicilio_fiscal_receptor: codigoPostal('Domicilio fiscal del receptor: código postal').optional(),
  domicilio_cliente: textoOpcional('Domicilio del receptor (solo se imprime)', 300),
  uso_cfdi: clave(USO_CFDI, 'c_UsoCFDI', 'Uso del CFDI (c_UsoCFDI: G03 gastos en general…)').optional(),
  forma_pago: clave(
    FORMA_PAGO,
    'c_FormaPago',
    'Forma de pago (c_FormaPago: 03 transferencia, 99 por definir…)',
  ).optional(),
  metodo_pago: clave(
    METODO_PAGO,
    'c_MetodoPago',
    'Método de pago: PUE (una exhibición) o PPD (parcialidades o diferido)',
  ).optional(),
  condiciones_pago: textoOpcional('Condiciones de pago (p. ej. "Crédito a 30 días")', 1000),
  exportacion: clave(
    EXPORTACION,
    'c_Exportacion',
    'Exportación (c_Exportacion). Por omisión 01 No aplica',
  ).default('01'),
  tipo_cambio: numero('Tipo de cambio a MXN (obligatorio si la moneda no es MXN)', {
    positive: true,
  }).optional(),
  tasa_iva: tasaIva.default(0.16),
  retenciones: z
    .array(retencion)
    .max(5)
    .optional()
    .describe('Retenciones de todos los conceptos que no traen las suyas (p. ej. ISR 10 %, IVA 0.106667)'),
  uuid: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine(
      (s) => UUID_RE.test(s),
      issue('A folio fiscal (UUID) is written 8-4-4-4-12 hexadecimal digits', 'uuid_format'),
    )
    .optional()
    .describe('Folio fiscal (UUID) del timbre; sin él, la factura se marca como no timbrada'),
  no_certificado: noCertificado('Número de certificado del emisor (CSD)').optional(),
  no_certificado_sat: noCertificado('Número de certificado del SAT').optional(),
  sello_cfdi: base64('Sello digital del CFDI').optional(),
  sello_sat: base64('Sello digital del SAT').optional(),
  fecha_timbrado: fechaHora('Fecha y hora de certificación (AAAA-MM-DDThh:mm:ss)', true).optional(),
  rfc_prov_certif: rfcCfdi('RFC del proveedor de certificación (PAC)').optional(),
  subtotal: numero('Subtotal, si se envía se comprueba').optional(),
  descuento: numero('Descuento total, si se envía se comprueba').optional(),
  total_impuestos_trasladados: numero('Total de impuestos trasladados, si se envía se comprueba').optional(),
  total_impuestos_retenidos: numero('Total de impuestos retenidos, si se envía se comprueba').optional(),
  total: numero('Total, si se envía se comprueba').optional(),
  notas: textoOpcional('Notas al pie', 2000),
});

type Shape = z.output<typeof shape>;
type Item = Shape['items'][number];
type Traslado = z.output<typeof traslado>;
type Retencion = z.output<typeof retencion>;

// ---- what each item is taxed with ----------------------------------------------------------------------------

function ivaTraslado(tasa: (typeof TASAS_IVA)[number] | 'exento'): TrasladoInput {
  return tasa === 'exento'
    ? { impuesto: '002', tipoFactor: 'Exento' }
    : { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: String(tasa) };
}

const toTraslado = (t: Traslado): TrasladoInput => ({
  impuesto: t.impuesto,
  tipoFactor: t.tipo_factor,
  ...(t.tipo_factor === 'Exento' ? {} : { tasaOCuota: String(t.tasa_o_cuota ?? 0) }),
});

const toRetencion = (r: Retencion): RetencionInput => ({
  impuesto: r.impuesto,
  tipoFactor: r.tipo_factor,
  tasaOCuota: String(r.tasa_o_cuota),
});

/** The concept as the calculator takes it: explicit taxes, else the item's/invoice's IVA and retenciones. */
export function conceptoInput(it: Item, data: Pick<Shape, 'tasa_iva' | 'retenciones'>): ConceptoInput {
  const objetoImp = it.objeto_imp ?? '02';
  const sinImpuestos = OBJETO_SIN_IMPUESTOS.has(objetoImp);
  const traslados = sinImpuestos
    ? []
    : it.traslados
      ? it.traslados.map(toTraslado)
      : [ivaTraslado(it.tasa_iva ?? data.tasa_iva)];
  const retenciones = sinImpuestos ? [] : (it.retenciones ?? data.retenciones ?? []).map(toRetencion);
  return {
    cantidad: String(it.cantidad),
    valorUnitario: String(it.precio),
    descuento: it.descuento === undefined ? undefined : String(it.descuento),
    objetoImp,
    traslados,
    retenciones,
  };
}

// ---- cross-field checks --------------------------------------------------------------------------------------

type Ctx = z.core.$RefinementCtx<Shape>;

function inRange(v: number, r: { min: string; max: string }, inclusiveMin = false): boolean {
  const d = dec(v);
  return (inclusiveMin ? d.gte(r.min) : d.gt(r.min)) && d.lte(r.max);
}

function checkTraslado(t: Traslado, path: (string | number)[], ctx: Ctx) {
  const at = [...path, 'tasa_o_cuota'];
  if (t.impuesto === '001')
    return customIssue(
      ctx,
      [...path, 'impuesto'],
      'ISR is withheld, never transferred: put it in retenciones',
      'impuesto_invalido',
    );
  if (t.tipo_factor === 'Exento') {
    if (t.tasa_o_cuota !== undefined)
      customIssue(ctx, at, 'An Exento traslado has no tasa o cuota', 'tasa_o_cuota_invalida');
    return;
  }
  if (t.tasa_o_cuota === undefined)
    return customIssue(ctx, at, `Field required for TipoFactor ${t.tipo_factor}`, 'missing');
  const tasa = dec(t.tasa_o_cuota).toString();
  if (t.impuesto === '002') {
    if (t.tipo_factor !== 'Tasa')
      customIssue(
        ctx,
        [...path, 'tipo_factor'],
        'IVA is transferred as Tasa or Exento',
        'tipo_factor_invalido',
      );
    else if (!TASAS_IVA_TRASLADO.includes(tasa))
      customIssue(
        ctx,
        at,
        'IVA trasladado is 0.16, 0.08 (región fronteriza) or 0 (c_TasaOCuota)',
        'tasa_o_cuota_invalida',
      );
  } else if (t.tipo_factor === 'Tasa' && !TASAS_IEPS.includes(tasa)) {
    customIssue(
      ctx,
      at,
      `Not an IEPS tasa of c_TasaOCuota: use one of ${TASAS_IEPS.join(', ')}`,
      'tasa_o_cuota_invalida',
    );
  } else if (t.tipo_factor === 'Cuota' && !inRange(t.tasa_o_cuota, RANGO_CUOTA_IEPS, true)) {
    customIssue(
      ctx,
      at,
      `An IEPS cuota is between 0 and ${RANGO_CUOTA_IEPS.max} per unit`,
      'tasa_o_cuota_invalida',
    );
  }
}

function checkRetencion(r: Retencion, path: (string | number)[], ctx: Ctx) {
  const at = [...path, 'tasa_o_cuota'];
  if (r.impuesto === '001') {
    if (r.tipo_factor !== 'Tasa')
      customIssue(ctx, [...path, 'tipo_factor'], 'ISR is withheld as Tasa', 'tipo_factor_invalido');
    else if (!inRange(r.tasa_o_cuota, RANGO_RETENCION_ISR))
      customIssue(ctx, at, 'ISR retenido is a tasa above 0 and at most 0.35', 'tasa_o_cuota_invalida');
  } else if (r.impuesto === '002') {
    if (r.tipo_factor !== 'Tasa')
      customIssue(ctx, [...path, 'tipo_factor'], 'IVA is withheld as Tasa', 'tipo_factor_invalido');
    else if (!inRange(r.tasa_o_cuota, RANGO_RETENCION_IVA))
      customIssue(
        ctx,
        at,
        'IVA retenido is a tasa above 0 and at most 0.16 (e.g. 0.106667 for two thirds)',
        'tasa_o_cuota_invalida',
      );
  } else if (r.tipo_factor === 'Tasa' && !TASAS_IEPS.includes(dec(r.tasa_o_cuota).toString())) {
    customIssue(
      ctx,
      at,
      `Not an IEPS tasa of c_TasaOCuota: use one of ${TASAS_IEPS.join(', ')}`,
      'tasa_o_cuota_invalida',
    );
  }
}

function checkAmount(
  ctx: Ctx,
  path: (string | number)[],
  label: string,
  sent: number | undefined,
  computed: string,
  moneda: string,
) {
  if (sent === undefined) return;
  const got = roundMoney(dec(sent), moneda);
  const want = dec(computed);
  if (!got.eq(want))
    customIssue(
      ctx,
      path,
      `${label} does not match the items: computed ${want.toFixed(currencyDigits(moneda))}, got ${dec(sent).toString()} (difference ${got.minus(want).toFixed(currencyDigits(moneda))})`,
      'arithmetic_mismatch',
    );
}

function crossChecks(d: Shape, ctx: Ctx) {
  // Fields with their own problems first: rules across fields would only repeat them (and see raw values).
  if (ctx.issues.length > 0) return;
  const digits = currencyDigits(d.moneda);

  // Items: taxes, objeto de impuesto, decimals of money fields.
  d.items.forEach((it, i) => {
    const at = ['items', i];
    it.traslados?.forEach((t, j) => checkTraslado(t, [...at, 'traslados', j], ctx));
    it.retenciones?.forEach((r, j) => checkRetencion(r, [...at, 'retenciones', j], ctx));
    const objeto = it.objeto_imp ?? '02';
    const own =
      (it.traslados?.length ?? 0) + (it.retenciones?.length ?? 0) + (it.tasa_iva !== undefined ? 1 : 0);
    if (OBJETO_SIN_IMPUESTOS.has(objeto) && own > 0)
      customIssue(
        ctx,
        [...at, 'objeto_imp'],
        `Objeto de impuesto ${objeto} (${OBJETO_IMP[objeto]!.descripcion}) carries no taxes: drop this item's traslados, retenciones and tasa_iva, or use 02`,
        'objeto_imp_conflict',
      );
    if (objeto === '02' && it.traslados?.length === 0 && !(it.retenciones ?? d.retenciones)?.length)
      customIssue(
        ctx,
        [...at, 'objeto_imp'],
        'Objeto de impuesto 02 needs at least one traslado or retención',
        'objeto_imp_conflict',
      );
    if (it.descuento !== undefined) {
      if (dec(it.descuento).decimalPlaces() > digits)
        customIssue(
          ctx,
          [...at, 'descuento'],
          `At most ${digits} decimals in ${d.moneda}`,
          'too_many_decimals',
        );
      const importe = roundMoney(dec(it.cantidad).times(it.precio), d.moneda);
      if (dec(it.descuento).gt(importe))
        customIssue(
          ctx,
          [...at, 'descuento'],
          `The descuento is larger than the importe (${importe.toFixed(digits)})`,
          'descuento_too_large',
        );
    }
  });
  d.retenciones?.forEach((r, j) => checkRetencion(r, ['retenciones', j], ctx));

  const itemsOk = ctx.issues.length === 0;

  // RFCs against régimen and uso CFDI.
  const emisor = d.rfc_emisor ? checkRfc(d.rfc_emisor) : undefined;
  const receptor = d.rfc_cliente ? checkRfc(d.rfc_cliente) : undefined;
  const regimenApplies = (regimen: string, tipo: string) => {
    const e = REGIMEN_FISCAL[regimen]!;
    return tipo === 'moral' ? e.moral : e.fisica;
  };
  if (emisor?.ok && (emisor.tipo === 'generico' || emisor.tipo === 'extranjero'))
    customIssue(ctx, ['rfc_emisor'], 'The emisor cannot use a generic RFC', 'rfc_generico');
  if (
    emisor?.ok &&
    d.regimen_fiscal_emisor &&
    (emisor.tipo === 'moral' || emisor.tipo === 'fisica') &&
    !regimenApplies(d.regimen_fiscal_emisor, emisor.tipo)
  )
    customIssue(
      ctx,
      ['regimen_fiscal_emisor'],
      `Régimen ${d.regimen_fiscal_emisor} does not apply to a persona ${emisor.tipo === 'moral' ? 'moral (12-character RFC)' : 'física (13-character RFC)'}`,
      'regimen_rfc_mismatch',
    );
  if (receptor?.ok) {
    const generico = receptor.tipo === 'generico' || receptor.tipo === 'extranjero';
    if (generico) {
      if (d.uso_cfdi && d.uso_cfdi !== 'S01')
        customIssue(
          ctx,
          ['uso_cfdi'],
          `With the generic RFC ${receptor.rfc} the uso CFDI is S01 (sin efectos fiscales)`,
          'rfc_generico',
        );
      if (d.regimen_fiscal_receptor && d.regimen_fiscal_receptor !== '616')
        customIssue(
          ctx,
          ['regimen_fiscal_receptor'],
          `With the generic RFC ${receptor.rfc} the régimen is 616 (sin obligaciones fiscales)`,
          'rfc_generico',
        );
      if (
        receptor.rfc === RFC_PUBLICO_GENERAL &&
        d.domicilio_fiscal_receptor &&
        d.lugar_expedicion &&
        d.domicilio_fiscal_receptor !== d.lugar_expedicion
      )
        customIssue(
          ctx,
          ['domicilio_fiscal_receptor'],
          'With XAXX010101000 the domicilio fiscal del receptor is the lugar de expedición',
          'rfc_generico',
        );
    } else {
      if (d.regimen_fiscal_receptor && !regimenApplies(d.regimen_fiscal_receptor, receptor.tipo))
        customIssue(
          ctx,
          ['regimen_fiscal_receptor'],
          `Régimen ${d.regimen_fiscal_receptor} does not apply to a persona ${receptor.tipo === 'moral' ? 'moral (12-character RFC)' : 'física (13-character RFC)'}`,
          'regimen_rfc_mismatch',
        );
      const uso = d.uso_cfdi ? USO_CFDI[d.uso_cfdi]! : undefined;
      if (uso && !(receptor.tipo === 'moral' ? uso.moral : uso.fisica))
        customIssue(
          ctx,
          ['uso_cfdi'],
          `Uso CFDI ${d.uso_cfdi} (${uso.descripcion}) is only for personas físicas`,
          'uso_cfdi_mismatch',
        );
    }
  }

  // Currency and exchange rate. The contract's minimal shape (no RFC, no timbre) stays valid in any currency; a CFDI
  // (emisor RFC or UUID given) in a foreign currency needs its TipoCambio.
  const cfdi = d.rfc_emisor !== undefined || d.uuid !== undefined;
  if (cfdi && d.moneda !== 'MXN' && d.tipo_cambio === undefined)
    customIssue(
      ctx,
      ['tipo_cambio'],
      `Field required when moneda is ${d.moneda}: the exchange rate to MXN`,
      'missing',
    );
  if (d.moneda === 'MXN' && d.tipo_cambio !== undefined && d.tipo_cambio !== 1)
    customIssue(
      ctx,
      ['tipo_cambio'],
      'With moneda MXN the tipo de cambio is 1 or absent',
      'tipo_cambio_invalido',
    );

  // Payment: PPD is paid later, so its forma de pago is 99 (por definir); PUE is paid now, so it is known.
  if (d.metodo_pago === 'PPD' && d.forma_pago && d.forma_pago !== '99')
    customIssue(
      ctx,
      ['forma_pago'],
      'With método de pago PPD the forma de pago is 99 (por definir): the payments are reported later with a complemento de pago',
      'forma_pago_metodo',
    );
  if (d.metodo_pago === 'PUE' && d.forma_pago === '99')
    customIssue(
      ctx,
      ['forma_pago'],
      'With método de pago PUE the forma de pago is known: 99 (por definir) is only for PPD',
      'forma_pago_metodo',
    );
  if (d.tipo_comprobante === 'E' && d.metodo_pago === 'PPD')
    customIssue(ctx, ['metodo_pago'], 'An egreso (E) is PUE', 'forma_pago_metodo');

  // A stamped invoice: the QR and the cadena original need all of these.
  if (d.uuid) {
    const need: (keyof Shape)[] = [
      'rfc_emisor',
      'rfc_cliente',
      'sello_cfdi',
      'fecha_timbrado',
      'no_certificado_sat',
      'rfc_prov_certif',
    ];
    for (const k of need)
      if (d[k] === undefined)
        customIssue(
          ctx,
          [k],
          'Field required with uuid: the SAT QR and the cadena original del timbre need it',
          'missing',
        );
  } else {
    for (const k of ['sello_sat', 'fecha_timbrado', 'no_certificado_sat', 'rfc_prov_certif'] as const)
      if (d[k] !== undefined)
        customIssue(ctx, ['uuid'], `Field required with ${k}: a timbre has a folio fiscal (UUID)`, 'missing');
  }

  // Arithmetic the caller sent (once every item and its taxes are valid).
  if (!itemsOk) return;
  const calc = calcularCfdi(
    d.items.map((it) => conceptoInput(it, d)),
    d.moneda,
  );
  const m = (v: ReturnType<typeof dec> | undefined) => roundMoney(v ?? dec(0), d.moneda).toFixed(digits);
  d.items.forEach((it, i) =>
    checkAmount(
      ctx,
      ['items', i, 'importe'],
      'The importe',
      it.importe,
      m(calc.conceptos[i]!.importe),
      d.moneda,
    ),
  );
  checkAmount(ctx, ['subtotal'], 'The subtotal', d.subtotal, m(calc.subtotal), d.moneda);
  checkAmount(ctx, ['descuento'], 'The descuento', d.descuento, m(calc.descuento), d.moneda);
  checkAmount(
    ctx,
    ['total_impuestos_trasladados'],
    'The total of taxes transferred',
    d.total_impuestos_trasladados,
    m(calc.totalTrasladados),
    d.moneda,
  );
  checkAmount(
    ctx,
    ['total_impuestos_retenidos'],
    'The total of taxes withheld',
    d.total_impuestos_retenidos,
    m(calc.totalRetenidos),
    d.moneda,
  );
  checkAmount(ctx, ['total'], 'The total', d.total, m(calc.total), d.moneda);
  if (calc.total.isNegative())
    customIssue(
      ctx,
      ['items'],
      `The total is negative (${calc.total.toFixed(digits)}): check descuentos and retenciones`,
      'negative_total',
    );
}

export const schema = shape.superRefine(crossChecks);

export type FacturaData = z.output<typeof schema>;
export type FacturaItem = Item;
