// The shape of the factura's data (./schema.ts adds the checks across fields, ./verificaciones.ts), and what each
// item is taxed with as the calculator (templates/kit/cfdi/calc.ts) takes it.
import { z } from 'zod';
import {
  EXPORTACION,
  FORMA_PAGO,
  METODO_PAGO,
  OBJETO_IMP,
  OBJETO_SIN_IMPUESTOS,
  REGIMEN_FISCAL,
  TIPO_COMPROBANTE,
  USO_CFDI,
} from '../kit/cfdi/catalogos';
import type { ConceptoInput, RetencionInput, TrasladoInput } from '../kit/cfdi/calc';
import { codigoPostal, mayusculas, rfcCfdi, texto, textoOpcional } from '../kit/schema-helpers';
import {
  base64,
  clave,
  fechaHora,
  issue,
  monedaCfdi,
  noCertificado,
  numero,
  numeroContrato,
  retencion,
  tasaIva,
  traslado,
  UUID_RE,
} from './campos';

export const TASAS_IVA = [0, 0.08, 0.16] as const;

const item = z.object({
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
  clave_unidad: mayusculas()
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

export const shape = z.object({
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
  uuid: mayusculas()
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

export type Shape = z.output<typeof shape>;
export type Item = Shape['items'][number];
export type Traslado = z.output<typeof traslado>;
export type Retencion = z.output<typeof retencion>;

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
