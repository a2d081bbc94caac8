// nomina (pure, no Chromium): the CFDI nómina 1.2 totals with exact decimals (gravado/exento, ISR vs other
// deductions, otros pagos, neto con letra); SAT catalogues (periodicidad by code or name); per-field 400s with
// English messages for RFC, CURP (format, date, check digit), NSS, dates, amounts and stated totals.
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { curpCheckDigit } from '../../templates/kit/schema-helpers';
import { builtInPartials, loadSource } from '../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { antiguedad, calcNomina } from '../../templates/nomina/calc';
import { nomina } from '../../templates/nomina/meta';
import { schema } from '../../templates/nomina/schema';

type Data = Record<string, unknown> & { empleado: Record<string, unknown>; periodo: Record<string, unknown> };

/** A CURP with RENAPO's check digit for its first 17 characters. */
const CURP = `DIRL900101MDFZZR0${curpCheckDigit('DIRL900101MDFZZR0')}`;

const ok = (): Data => ({
  empresa: 'Patrón, S.A. de C.V.',
  empleado: { nombre: 'Laura Díaz Ruiz', rfc: 'DIRL900101AB1', curp: CURP },
  periodo: { inicio: '2026-11-01', fin: '2026-11-15', periodicidad: '04' },
  fecha_pago: '2026-11-15',
  percepciones: [{ clave: '001', importe: 5000 }],
});

function problems(data: unknown) {
  const r = validateRenderRequest({ template: 'nomina', format: 'pdf', data });
  return r.ok ? [] : r.problems;
}
const at = (p: { loc: (string | number)[] }) => p.loc.slice(2).join('.');

function text(data: unknown): string {
  const { source, hash } = loadSource('nomina');
  const h = renderTrusted(source, nomina.view(schema.parse(data)), builtInPartials(), `nomina@${hash}`);
  return h
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<title>[\s\S]*?<\/title>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0]+/g, ' ');
}

describe('nomina totals (exact decimals, CFDI nómina 1.2)', () => {
  it('the sample: gravado/exento, ISR apart from other deductions, neto con letra', () => {
    const c = calcNomina(schema.parse(nomina.sample));
    expect({
      percepciones: c.total_percepciones,
      gravado: c.total_gravado,
      exento: c.total_exento,
      sueldos: c.total_sueldos,
      deducciones: c.total_deducciones,
      isr: c.total_impuestos_retenidos,
      otras: c.total_otras_deducciones,
      otros: c.total_otros_pagos,
      neto: c.neto,
    }).toEqual({
      percepciones: '11943.75',
      gravado: '11334.37',
      exento: '609.38',
      sueldos: '11943.75',
      deducciones: '2513.00',
      isr: '1402.36',
      otras: '1110.64',
      otros: '0.00',
      neto: '9430.75',
    });
    expect(c.neto_letra).toBe('NUEVE MIL CUATROCIENTOS TREINTA PESOS 75/100 M.N.');
  });

  it('adds without float drift and includes otros pagos (subsidio para el empleo) in the net', () => {
    const c = calcNomina(
      schema.parse({
        ...ok(),
        percepciones: [
          { clave: '001', gravado: 0.1, exento: 0.2 }, // 0.30000000000000004 in floats
          { clave: '019', importe: 3333.33 },
        ],
        deducciones: [
          { clave: '002', importe: 0.3 },
          { clave: '001', importe: 100.1 },
        ],
        otros_pagos: [{ clave: '002', importe: 217.9, subsidio_causado: 217.9 }],
      }),
    );
    expect([c.total_percepciones, c.total_gravado, c.total_exento]).toEqual(['3333.63', '3333.43', '0.20']);
    expect([c.total_impuestos_retenidos, c.total_otras_deducciones, c.total_otros_pagos]).toEqual([
      '0.30',
      '100.10',
      '217.90',
    ]);
    expect(c.neto).toBe('3451.13'); // 3,333.63 + 217.90 − 100.40
    expect(c.neto_letra).toBe('TRES MIL CUATROCIENTOS CINCUENTA Y UN PESOS 13/100 M.N.');
  });

  it('separates severance and retirement payments from TotalSueldos', () => {
    const c = calcNomina(
      schema.parse({
        ...ok(),
        percepciones: [
          { clave: '001', importe: 1000 },
          { clave: '025', exento: 5000 },
          { clave: '039', importe: 700 },
        ],
      }),
    );
    expect([c.total_sueldos, c.total_separacion, c.total_jubilacion, c.total_percepciones]).toEqual([
      '1000.00',
      '5000.00',
      '700.00',
      '6700.00',
    ]);
  });

  it('names lines from the SAT catalogue when no concepto is given, and counts the period days', () => {
    const c = calcNomina(schema.parse({ ...ok(), deducciones: [{ clave: '002', importe: 1 }] }));
    expect(c.percepciones[0]).toMatchObject({
      concepto: 'Sueldos, salarios, rayas y jornales',
      gravado: '5000.00',
    });
    expect(c.deducciones[0]).toMatchObject({ concepto: 'ISR' });
    expect([c.periodicidad, c.dias_pagados]).toEqual(['04 Quincenal', '15']);
  });

  it('writes seniority in years and months', () => {
    expect(antiguedad('2016-08-01', '2024-03-15')).toBe('7 años 7 meses');
    expect(antiguedad('2023-03-16', '2024-03-15')).toBe('11 meses');
    expect(antiguedad('2023-03-15', '2024-03-15')).toBe('1 año');
    expect(antiguedad('2024-03-10', '2024-03-15')).toBe('menos de un mes');
  });
});

describe('nomina catalogues', () => {
  it.each([['04'], ['Quincenal'], ['QUINCENAL'], ['quincenal ']])('periodicidad %p is 04 Quincenal', (p) => {
    const d = ok();
    d.periodo.periodicidad = p;
    expect(problems(d)).toEqual([]);
    expect(calcNomina(schema.parse(d)).periodicidad).toBe('04 Quincenal');
  });

  it('accepts "Comisión" without its accent and refuses what is not in c_PeriodicidadPago', () => {
    const d = ok();
    d.periodo.periodicidad = 'comision';
    expect(calcNomina(schema.parse(d)).periodicidad).toBe('08 Comisión');
    d.periodo.periodicidad = 'Trimestral';
    expect(problems(d)).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'periodo', 'periodicidad'],
        type: 'catalog_code',
        msg: expect.stringContaining('is not in the SAT catalogue c_PeriodicidadPago'),
      }),
    ]);
  });

  it('refuses type codes outside SAT ranges and lines that do not say what they are', () => {
    const p = problems({
      ...ok(),
      percepciones: [
        { clave: '1', importe: 1 },
        { clave: '054', importe: 1 },
        { clave: '007', importe: 1 },
      ],
      otros_pagos: [{ clave: '010', importe: 1 }],
    });
    expect(p.map((x) => [at(x), x.type])).toEqual([
      ['percepciones.0.clave', 'catalog_code'],
      ['percepciones.1.clave', 'catalog_code'],
      ['percepciones.2.concepto', 'missing'], // 007 is in range but retired: it needs its own concepto
      ['otros_pagos.0.clave', 'catalog_code'],
    ]);
    expect(problems({ ...ok(), percepciones: [{ clave: '007', concepto: 'Otro', importe: 1 }] })).toEqual([]);
  });
});

describe('nomina 400s, per field, in English', () => {
  it('RFC of the employee: 13 characters (persona física), with a real date', () => {
    const d = ok();
    d.empleado.rfc = 'DIR900101AB1'; // 12: a company's shape
    expect(problems(d)).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'empleado', 'rfc'],
        type: 'rfc_format',
        msg: expect.stringContaining('13 characters'),
      }),
    ]);
    d.empleado.rfc = 'DIRL901301AB1';
    expect(problems(d)[0]).toMatchObject({ msg: "The RFC's date 901301 (YYMMDD) is not a calendar day" });
    d.empleado.rfc = 'dirl900101ab1'; // lower case is fine
    expect(problems(d)).toEqual([]);
  });

  it('CURP: length, format, date and check digit', () => {
    const cases: [string, RegExp][] = [
      ['DIRL900101MDFZZR0', /18 characters/],
      ['DIRL900101QDFZZR01', /Not a CURP/], // sex Q
      ['DIRL900101MZZZZR01', /Not a CURP/], // state ZZ
      ['DIRL900231MDFZZR01', /CURP's date 900231 \(YYMMDD\)/],
      [
        `DIRL900101MDFZZR0${(curpCheckDigit('DIRL900101MDFZZR0') + 1) % 10}`,
        /check digit does not match \(it should be \d\)/,
      ],
    ];
    for (const [curp, msg] of cases) {
      const d = ok();
      d.empleado.curp = curp;
      expect([curp, problems(d)]).toEqual([
        curp,
        [
          expect.objectContaining({
            loc: ['body', 'data', 'empleado', 'curp'],
            type: 'curp_format',
            msg: expect.stringMatching(msg),
          }),
        ],
      ]);
    }
  });

  it("RENAPO's check digit matches published CURPs", () => {
    expect(curpCheckDigit('LOOA531113HTCPBN0')).toBe(7);
    expect(curpCheckDigit('MAHJ280603MSPRRV0')).toBe(9);
  });

  it("NSS: SAT's [0-9]{1,15} (nomina12.xsd), never stricter: 6, 11 and 15 digits pass; letters, dashes, 16 digits do not", () => {
    for (const nss of ['123456', '12038512345', '123456789012345']) {
      const d = ok();
      d.empleado.nss = nss;
      expect(problems(d)).toEqual([]);
    }
    for (const nss of ['1203851234X', '120-385-1234', '1234567890123456']) {
      const d = ok();
      d.empleado.nss = nss;
      expect(problems(d)).toEqual([
        expect.objectContaining({
          loc: ['body', 'data', 'empleado', 'nss'],
          type: 'nss_format',
          msg: expect.stringContaining('1 to 15 digits'),
        }),
      ]);
    }
  });

  it('reports every identifier problem at once', () => {
    const d = ok();
    Object.assign(d.empleado, { rfc: 'X', curp: 'Y', nss: 'Z' });
    expect(problems(d).map(at)).toEqual(['empleado.rfc', 'empleado.curp', 'empleado.nss']);
  });

  it('dates in order: the period, and hiring before the period ends', () => {
    const d = ok();
    d.periodo.fin = '2026-10-31';
    d.empleado.fecha_ingreso = '2026-12-01';
    expect(problems(d).map((x) => [at(x), x.type, x.msg])).toEqual([
      ['periodo.fin', 'date_order', 'periodo.fin is before periodo.inicio'],
      [
        'empleado.fecha_ingreso',
        'date_order',
        'fecha_ingreso is after the end of the pay period (periodo.fin)',
      ],
    ]);
  });

  it('a percepción whose importe is not gravado + exento, or with no amount', () => {
    const p = problems({
      ...ok(),
      percepciones: [{ clave: '001', gravado: 100, exento: 0.1, importe: 100.2 }, { clave: '001' }],
    });
    expect(p.map((x) => [at(x), x.type, x.msg])).toEqual([
      ['percepciones.0.importe', 'amount_mismatch', 'The importe (100.20) is not gravado + exento (100.10)'],
      ['percepciones.1.importe', 'missing', 'Give the importe, or the gravado and the exento'],
    ]);
  });

  it('stated totals must add up to the centavo', () => {
    const right = { percepciones: 5000, deducciones: 0, otros_pagos: 0, neto: 5000 };
    expect(problems({ ...ok(), totales: right })).toEqual([]);
    expect(problems({ ...ok(), totales: { ...right, neto: 5000.01 } })).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'totales', 'neto'],
        type: 'total_mismatch',
        msg: 'Does not add up: the lines give 5000.00 and the data says 5000.01',
      }),
    ]);
  });

  it('deductions above the pay, subsidio causado below the subsidio paid, SDI below the daily wage', () => {
    const d = {
      ...ok(),
      deducciones: [{ clave: '002', importe: 5000.01 }],
      otros_pagos: [{ clave: '002', importe: 10, subsidio_causado: 9.99 }],
    };
    Object.assign(d.empleado, { salario_diario: 300, salario_diario_integrado: 299.99 });
    expect(problems(d).map((x) => [at(x), x.type])).toEqual([
      ['otros_pagos.0.subsidio_causado', 'value_error'],
      ['empleado.salario_diario_integrado', 'value_error'],
    ]);
    d.otros_pagos = []; // now 5,000 − 5,000.01 < 0
    expect(problems(d).map((x) => [at(x), x.type])).toEqual([
      ['deducciones', 'negative_net_pay'],
      ['empleado.salario_diario_integrado', 'value_error'],
    ]);
  });

  it('requires the employee RFC and CURP and at least one percepción', () => {
    const d = ok();
    delete d.empleado.rfc;
    delete d.empleado.curp;
    d.percepciones = [];
    expect(problems(d).map((x) => [at(x), x.type])).toEqual([
      ['empleado.rfc', 'missing'],
      ['empleado.curp', 'missing'],
      ['percepciones', 'too_short'],
    ]);
  });
});

describe('nomina HTML', () => {
  const t = text(nomina.sample);

  it('prints employer, employee identifiers, period and catalogues', () => {
    expect(t).toContain('RFC MPC0907145R3 · Registro patronal Y5412345106');
    expect(t).toContain('Régimen fiscal 601 General de Ley Personas Morales');
    expect(t).toContain('José Antonio Hernández Ortega');
    expect(t).toContain('RFC HEOA850612QW4 CURP HEOA850612HQTRRN09 NSS 12038512345');
    expect(t).toContain('Periodicidad 04 Quincenal');
    expect(t).toContain('Días pagados 15');
    expect(t).toContain('Fecha de pago 15 de marzo de 2024');
    expect(t).toContain('Antigüedad 7 años 7 meses');
    expect(t).toContain('01 Contrato de trabajo por tiempo indeterminado');
    expect(t).toContain('BBVA México · •••• 7891');
    expect(t).not.toContain('012680001234567891'); // only the last four digits of the account
  });

  it('prints the lines and totals, and the net pay in figures and in words', () => {
    expect(t).toContain('019 Horas extra dobles $609.37 $609.38 $1,218.75');
    expect(t).toContain('Total percepciones $11,334.37 $609.38 $11,943.75');
    expect(t).toContain('002 ISR $1,402.36');
    expect(t).toContain('Total deducciones $2,513.00');
    expect(t).toContain('002 Subsidio para el empleo (causado $0.00) $0.00');
    expect(t).toContain('Impuestos retenidos (ISR) $1,402.36');
    expect(t).toContain('Otras deducciones $1,110.64');
    expect(t).toContain('Neto a pagar $9,430.75');
    expect(t).toContain('NUEVE MIL CUATROCIENTOS TREINTA PESOS 75/100 M.N.');
    expect(t).toContain('no es un CFDI de nómina timbrado');
  });

  it('escapes caller text', () => {
    const d = ok();
    d.empleado.nombre = '<img src=x onerror=alert(1)> & Cía';
    const { source, hash } = loadSource('nomina');
    const raw = renderTrusted(source, nomina.view(schema.parse(d)), builtInPartials(), `nomina@${hash}`);
    expect(raw).not.toContain('<img src=x');
    expect(raw).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; Cía');
  });
});
