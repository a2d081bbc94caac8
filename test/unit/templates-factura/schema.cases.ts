// test/unit/templates-factura.test.ts: the schema (contract shape, CFDI 4.0 fields, per-field 400s).
import { checkRfc } from '../../../templates/kit/cfdi/rfc';
import { calcFactura } from '../../../templates/factura/calc';
import { facturaCfdi } from '../../../templates/factura/xml';
import { SAMPLE, MINIMAL, parse, problems, problem } from './data';

export function schemaCases(): void {
  describe('schema', () => {
    it('accepts the contract shape exactly, and the shape before CFDI 4.0 fields', () => {
      expect(problems(MINIMAL)).toEqual([]);
      const old = parse({
        ...MINIMAL,
        rfc_emisor: 'sdb180315kj2',
        tasa_iva: 0.08,
        forma_pago: '03 Transferencia electrónica de fondos',
        metodo_pago: 'PUE Pago en una sola exhibición',
        fecha: '2024-03-15',
        items: [{ concepto: 'x', cantidad: 1, precio: 10, unidad: 'hora' }],
      });
      expect(old.rfc_emisor).toBe('SDB180315KJ2');
      expect(old.forma_pago).toBe('03');
      expect(old.metodo_pago).toBe('PUE');
      expect(calcFactura(old).iva).toBe('0.80');
    });

    it('the sample carries every CFDI field and validates', () => {
      const d = parse(SAMPLE);
      expect(d.uuid).toMatch(/^[0-9A-F-]{36}$/);
      expect(calcFactura(d).total).toBe('30284.18');
    });

    it.each<[string, unknown, (string | number)[], string]>([
      ['RFC too short', { rfc_emisor: 'ABC12345' }, ['rfc_emisor'], 'rfc_format'],
      ['RFC date not a day', { rfc_cliente: 'ABC991332AB1' }, ['rfc_cliente'], 'rfc_format'],
      ['RFC check character not digit/A', { rfc_emisor: 'ABC990101ABZ' }, ['rfc_emisor'], 'rfc_format'],
      [
        'régimen of a moral for a física',
        { rfc_emisor: 'PEGJ8001019Q8', regimen_fiscal_emisor: '601' },
        ['regimen_fiscal_emisor'],
        'regimen_rfc_mismatch',
      ],
      [
        'régimen of a física for a moral',
        { rfc_cliente: 'CHU110921AB7', regimen_fiscal_receptor: '612' },
        ['regimen_fiscal_receptor'],
        'regimen_rfc_mismatch',
      ],
      [
        'uso D01 for a persona moral',
        { rfc_cliente: 'CHU110921AB7', uso_cfdi: 'D01' },
        ['uso_cfdi'],
        'uso_cfdi_mismatch',
      ],
      [
        'generic RFC with uso G03',
        { rfc_cliente: 'XAXX010101000', uso_cfdi: 'G03' },
        ['uso_cfdi'],
        'rfc_generico',
      ],
      [
        'generic RFC with régimen 601',
        { rfc_cliente: 'XEXX010101000', regimen_fiscal_receptor: '601' },
        ['regimen_fiscal_receptor'],
        'rfc_generico',
      ],
      ['generic RFC as emisor', { rfc_emisor: 'XAXX010101000' }, ['rfc_emisor'], 'rfc_generico'],
      ['unknown régimen', { regimen_fiscal_emisor: '699' }, ['regimen_fiscal_emisor'], 'catalog_key'],
      ['unknown uso CFDI', { uso_cfdi: 'G99' }, ['uso_cfdi'], 'catalog_key'],
      ['unknown forma de pago', { forma_pago: '07' }, ['forma_pago'], 'catalog_key'],
      ['unknown método de pago', { metodo_pago: 'PPX' }, ['metodo_pago'], 'catalog_key'],
      ['unknown exportación', { exportacion: '05' }, ['exportacion'], 'catalog_key'],
      ['moneda XXX', { moneda: 'XXX' }, ['moneda'], 'catalog_key'],
      ['unknown moneda', { moneda: 'ABC' }, ['moneda'], 'catalog_key'],
      ['código postal', { lugar_expedicion: '7600' }, ['lugar_expedicion'], 'codigo_postal_format'],
      ['UUID', { uuid: '5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F83' }, ['uuid'], 'uuid_format'],
      [
        'certificate number',
        { no_certificado: '3000100000050000341' },
        ['no_certificado'],
        'certificate_number_format',
      ],
      [
        'USD CFDI without tipo de cambio',
        { moneda: 'USD', rfc_emisor: 'EKU9003173C9' },
        ['tipo_cambio'],
        'missing',
      ],
      ['MXN with tipo de cambio', { tipo_cambio: 17.5 }, ['tipo_cambio'], 'tipo_cambio_invalido'],
      ['PPD with forma 03', { metodo_pago: 'PPD', forma_pago: '03' }, ['forma_pago'], 'forma_pago_metodo'],
      ['PUE with forma 99', { metodo_pago: 'PUE', forma_pago: '99' }, ['forma_pago'], 'forma_pago_metodo'],
      ['timbre data without UUID', { fecha_timbrado: '2024-03-15T10:00:00' }, ['uuid'], 'missing'],
      ['fecha not a day', { fecha: '2024-02-30' }, ['fecha'], 'date_format'],
      ['total off by a centavo', { total: 1432.1 }, ['total'], 'arithmetic_mismatch'],
      ['subtotal off', { subtotal: 1234.55 }, ['subtotal'], 'arithmetic_mismatch'],
      [
        'traslados total off',
        { total_impuestos_trasladados: 197.52 },
        ['total_impuestos_trasladados'],
        'arithmetic_mismatch',
      ],
      [
        'retenciones total sent without retenciones',
        { total_impuestos_retenidos: 1 },
        ['total_impuestos_retenidos'],
        'arithmetic_mismatch',
      ],
      [
        'ISR retenido above 35 %',
        { retenciones: [{ impuesto: 'ISR', tasa_o_cuota: 0.4 }] },
        ['retenciones', 0, 'tasa_o_cuota'],
        'tasa_o_cuota_invalida',
      ],
    ])('%s → 400 at its field', (_name, extra, loc, type) => {
      expect(problem({ ...MINIMAL, ...(extra as object) })).toMatchObject({
        loc: ['body', 'data', ...loc],
        type,
      });
    });

    it.each<[string, unknown, (string | number)[], string]>([
      [
        'IVA at 15 %',
        { traslados: [{ impuesto: 'IVA', tasa_o_cuota: 0.15 }] },
        ['traslados', 0, 'tasa_o_cuota'],
        'tasa_o_cuota_invalida',
      ],
      [
        'ISR transferred',
        { traslados: [{ impuesto: 'ISR', tasa_o_cuota: 0.1 }] },
        ['traslados', 0, 'impuesto'],
        'impuesto_invalido',
      ],
      [
        'IEPS tasa not in c_TasaOCuota',
        { traslados: [{ impuesto: 'IEPS', tasa_o_cuota: 0.2 }] },
        ['traslados', 0, 'tasa_o_cuota'],
        'tasa_o_cuota_invalida',
      ],
      [
        'Exento with a tasa',
        { traslados: [{ impuesto: 'IVA', tipo_factor: 'Exento', tasa_o_cuota: 0 }] },
        ['traslados', 0, 'tasa_o_cuota'],
        'tasa_o_cuota_invalida',
      ],
      [
        'unknown impuesto',
        { traslados: [{ impuesto: 'IVX', tasa_o_cuota: 0.16 }] },
        ['traslados', 0, 'impuesto'],
        'catalog_key',
      ],
      [
        'IVA retenido above 16 %',
        { retenciones: [{ impuesto: 'IVA', tasa_o_cuota: 0.2 }] },
        ['retenciones', 0, 'tasa_o_cuota'],
        'tasa_o_cuota_invalida',
      ],
      ['objeto 01 with taxes', { objeto_imp: '01', tasa_iva: 0.16 }, ['objeto_imp'], 'objeto_imp_conflict'],
      ['objeto 02 without taxes', { traslados: [] }, ['objeto_imp'], 'objeto_imp_conflict'],
      ['unknown objeto de impuesto', { objeto_imp: '09' }, ['objeto_imp'], 'catalog_key'],
      ['importe off', { importe: 1234.57 }, ['importe'], 'arithmetic_mismatch'],
      ['descuento above importe', { descuento: 2000 }, ['descuento'], 'descuento_too_large'],
      ['clave of 7 digits', { clave: '8111150' }, ['clave'], 'clave_format'],
      ['cantidad that rounds to 0 at 6 decimals', { cantidad: 1e-7 }, ['cantidad'], 'too_small'],
    ])('item: %s → 400 at its field', (_name, extra, loc, type) => {
      const data = { ...MINIMAL, items: [{ ...MINIMAL.items[0], ...(extra as object) }] };
      expect(problem(data)).toMatchObject({ loc: ['body', 'data', 'items', 0, ...loc], type });
    });

    it('names the difference to the centavo and every missing timbre field at once', () => {
      expect(problem({ ...MINIMAL, total: 1432.08 }).msg).toBe(
        'The total does not match the items: computed 1432.09, got 1432.08 (difference -0.01)',
      );
      const stamped = problems({ ...MINIMAL, uuid: '5f3a9c1e-7b2d-4e8f-a6c4-19d0b7e2f835' });
      expect(stamped.map((p) => p.loc.at(-1)).sort()).toEqual(
        [
          'fecha_timbrado',
          'no_certificado_sat',
          'rfc_cliente',
          'rfc_emisor',
          'rfc_prov_certif',
          'sello_cfdi',
        ].sort(),
      );
      expect(new Set(stamped.map((p) => p.type))).toEqual(new Set(['missing']));
    });

    it("the contract's cantidad and precio are plain numbers: binary-float noise is rounded half up to 6 decimals", () => {
      const d = parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 3, precio: 0.1 + 0.2 }] });
      expect(d.items[0]!.precio).toBe(0.3);
      expect(calcFactura(d).items[0]!.importe).toBe('0.90');
      expect(
        parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 1, precio: 1.1234565 }] }).items[0]!.precio,
      ).toBe(1.123457);
      expect(
        parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 1, precio: 1e-7 }] }).items[0]!.precio,
      ).toBe(0);
    });

    it('the contract shape is valid in any currency; the XML then lists TipoCambio as missing', () => {
      expect(problems({ ...MINIMAL, moneda: 'EUR' })).toEqual([]);
      expect(facturaCfdi(parse({ ...MINIMAL, moneda: 'EUR' })).faltan).toContainEqual({
        campo: 'tipo_cambio',
        atributo: 'TipoCambio',
      });
    });

    it('totals the caller sends that match are accepted, rounded to the centavo', () => {
      expect(
        problems({ ...MINIMAL, subtotal: 1234.56, total_impuestos_trasladados: 197.53, total: 1432.09 }),
      ).toEqual([]);
    });

    it('RFC kinds', () => {
      expect(checkRfc('EKU9003173C9')).toEqual({ ok: true, rfc: 'EKU9003173C9', tipo: 'moral' });
      expect(checkRfc('xiqb891116qe4')).toEqual({ ok: true, rfc: 'XIQB891116QE4', tipo: 'fisica' });
      expect(checkRfc('ÑA&0002290A1')).toMatchObject({ ok: true, tipo: 'moral' }); // Ñ, & and 29 Feb 2000
      expect(checkRfc('ABC010229AB1')).toMatchObject({ ok: false }); // 2001 is not leap
      expect(checkRfc('XAXX010101000')).toMatchObject({ ok: true, tipo: 'generico' });
      expect(checkRfc('XEXX010101000')).toMatchObject({ ok: true, tipo: 'extranjero' });
    });
  });
}
