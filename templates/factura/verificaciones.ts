// The checks across the factura's fields (./schema.ts): RFC shapes against régimen and uso CFDI, generic-RFC
// rules, tipo de cambio with a foreign currency, PUE/PPD against forma de pago 99, the timbre's fields together, each
// tax's rate against its catalogue, and the arithmetic: importes and totals the caller sends must equal the computed
// ones to the centavo (templates/kit/cfdi/calc.ts).
import type { z } from 'zod';
import {
  OBJETO_IMP,
  OBJETO_SIN_IMPUESTOS,
  RANGO_CUOTA_IEPS,
  RANGO_RETENCION_ISR,
  RANGO_RETENCION_IVA,
  REGIMEN_FISCAL,
  RFC_PUBLICO_GENERAL,
  TASAS_IEPS,
  TASAS_IVA_TRASLADO,
  USO_CFDI,
} from '../kit/cfdi/catalogos';
import { calcularCfdi } from '../kit/cfdi/calc';
import { checkRfc } from '../kit/cfdi/rfc';
import { currencyDigits, dec, roundMoney } from '../kit/money';
import { customIssue } from '../kit/schema-helpers';
import { conceptoInput, type Retencion, type Shape, type Traslado } from './forma';

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

export function crossChecks(d: Shape, ctx: Ctx) {
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
