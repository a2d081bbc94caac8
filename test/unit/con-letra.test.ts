// Importe con letra: Spanish words for amounts as Mexican invoices print them (templates/kit/con-letra.ts).
import { Dec } from '../../templates/kit/money';
import { importeConLetra, MAX_LETRAS, numeroALetras } from '../../templates/kit/con-letra';

describe('importeConLetra (MXN)', () => {
  it.each<[number | string, string]>([
    [0, 'CERO PESOS 00/100 M.N.'],
    [1, 'UN PESO 00/100 M.N.'],
    [2, 'DOS PESOS 00/100 M.N.'],
    [15, 'QUINCE PESOS 00/100 M.N.'],
    [16, 'DIECISÉIS PESOS 00/100 M.N.'],
    [21, 'VEINTIÚN PESOS 00/100 M.N.'],
    [22, 'VEINTIDÓS PESOS 00/100 M.N.'],
    [23, 'VEINTITRÉS PESOS 00/100 M.N.'],
    [30, 'TREINTA PESOS 00/100 M.N.'],
    [31, 'TREINTA Y UN PESOS 00/100 M.N.'],
    [99, 'NOVENTA Y NUEVE PESOS 00/100 M.N.'],
    [100, 'CIEN PESOS 00/100 M.N.'],
    [101, 'CIENTO UN PESOS 00/100 M.N.'],
    [115, 'CIENTO QUINCE PESOS 00/100 M.N.'],
    [500, 'QUINIENTOS PESOS 00/100 M.N.'],
    [700, 'SETECIENTOS PESOS 00/100 M.N.'],
    [900, 'NOVECIENTOS PESOS 00/100 M.N.'],
    [999, 'NOVECIENTOS NOVENTA Y NUEVE PESOS 00/100 M.N.'],
    [1000, 'MIL PESOS 00/100 M.N.'],
    [1001, 'MIL UN PESOS 00/100 M.N.'],
    [1234.56, 'MIL DOSCIENTOS TREINTA Y CUATRO PESOS 56/100 M.N.'],
    [2021, 'DOS MIL VEINTIÚN PESOS 00/100 M.N.'],
    [21000, 'VEINTIÚN MIL PESOS 00/100 M.N.'],
    [100000, 'CIEN MIL PESOS 00/100 M.N.'],
    [101000, 'CIENTO UN MIL PESOS 00/100 M.N.'],
    [571325.7, 'QUINIENTOS SETENTA Y UN MIL TRESCIENTOS VEINTICINCO PESOS 70/100 M.N.'],
    [1000000, 'UN MILLÓN DE PESOS 00/100 M.N.'],
    [1000001, 'UN MILLÓN UN PESOS 00/100 M.N.'],
    [1500000, 'UN MILLÓN QUINIENTOS MIL PESOS 00/100 M.N.'],
    [2000000, 'DOS MILLONES DE PESOS 00/100 M.N.'],
    [21000000, 'VEINTIÚN MILLONES DE PESOS 00/100 M.N.'],
    [1000000000, 'MIL MILLONES DE PESOS 00/100 M.N.'],
    ['1000000000000', 'UN BILLÓN DE PESOS 00/100 M.N.'],
    [30284.18, 'TREINTA MIL DOSCIENTOS OCHENTA Y CUATRO PESOS 18/100 M.N.'],
    // centavos: rounded half up to 2 decimals before writing
    [0.01, 'CERO PESOS 01/100 M.N.'],
    [0.5, 'CERO PESOS 50/100 M.N.'],
    [0.005, 'CERO PESOS 01/100 M.N.'], // half a centavo goes up
    [0.004, 'CERO PESOS 00/100 M.N.'],
    [1.995, 'DOS PESOS 00/100 M.N.'], // carries into the pesos
    [10.125, 'DIEZ PESOS 13/100 M.N.'],
    ['0.1', 'CERO PESOS 10/100 M.N.'],
    [-5.5, 'MENOS CINCO PESOS 50/100 M.N.'],
  ])('%s → %s', (amount, words) => {
    expect(importeConLetra(amount, 'MXN')).toBe(words);
  });

  it('defaults to MXN and takes exact decimals (no float drift)', () => {
    expect(importeConLetra(new Dec('0.1').plus('0.2'))).toBe('CERO PESOS 30/100 M.N.');
    expect(importeConLetra(new Dec('3').times('19.99'))).toBe('CINCUENTA Y NUEVE PESOS 97/100 M.N.');
    expect(importeConLetra('999999999999.999')).toBe('UN BILLÓN DE PESOS 00/100 M.N.');
  });
});

describe('importeConLetra (other currencies)', () => {
  it.each<[number, string, string]>([
    [1, 'USD', 'UN DÓLAR 00/100 USD'],
    [2, 'usd', 'DOS DÓLARES 00/100 USD'],
    [1234.56, 'USD', 'MIL DOSCIENTOS TREINTA Y CUATRO DÓLARES 56/100 USD'],
    [1000000, 'USD', 'UN MILLÓN DE DÓLARES 00/100 USD'],
    [1, 'EUR', 'UN EURO 00/100 EUR'],
    [21.5, 'EUR', 'VEINTIÚN EUROS 50/100 EUR'],
    [1234.56, 'EUR', 'MIL DOSCIENTOS TREINTA Y CUATRO EUROS 56/100 EUR'],
    [2000000, 'EUR', 'DOS MILLONES DE EUROS 00/100 EUR'],
    [1, 'GBP', 'UNA LIBRA ESTERLINA 00/100 GBP'], // feminine agreement
    [221, 'GBP', 'DOSCIENTAS VEINTIUNA LIBRAS ESTERLINAS 00/100 GBP'],
    [1234.4, 'JPY', 'MIL DOSCIENTOS TREINTA Y CUATRO YENES JPY'], // no decimals
    [3, 'GTQ', 'TRES QUETZALES 00/100 GTQ'],
  ])('%s %s → %s', (amount, code, words) => {
    expect(importeConLetra(amount, code)).toBe(words);
  });

  it('names currencies outside its table from CLDR', () => {
    expect(importeConLetra(2, 'PEN')).toBe('DOS SOLES PERUANOS 00/100 PEN');
    expect(importeConLetra(1, 'PEN')).toBe('UN SOL PERUANO 00/100 PEN');
  });
});

describe('numeroALetras', () => {
  it.each<[number | bigint, string]>([
    [0, 'CERO'],
    [1, 'UNO'],
    [21, 'VEINTIUNO'],
    [29, 'VEINTINUEVE'],
    [41, 'CUARENTA Y UNO'],
    [101, 'CIENTO UNO'],
    [110, 'CIENTO DIEZ'],
    [555, 'QUINIENTOS CINCUENTA Y CINCO'],
    [777, 'SETECIENTOS SETENTA Y SIETE'],
    [999, 'NOVECIENTOS NOVENTA Y NUEVE'],
    [21000, 'VEINTIÚN MIL'],
    [1000000, 'UN MILLÓN'],
    [1000001, 'UN MILLÓN UNO'],
    [2000000, 'DOS MILLONES'],
    [1000000000, 'MIL MILLONES'],
    [21_000_000_000_000n, 'VEINTIÚN BILLONES'],
    [10n ** 18n, 'UN TRILLÓN'],
    [-21, 'MENOS VEINTIUNO'],
  ])('%s → %s', (n, words) => {
    expect(numeroALetras(n)).toBe(words);
  });

  it('apocopates and agrees when asked', () => {
    expect(numeroALetras(21, { apocope: true })).toBe('VEINTIÚN');
    expect(numeroALetras(1, { apocope: true })).toBe('UN');
    expect(numeroALetras(301, { gender: 'f' })).toBe('TRESCIENTAS UNA');
  });

  it('refuses what it cannot write', () => {
    expect(() => numeroALetras(1.5)).toThrow(RangeError);
    expect(() => numeroALetras(2 ** 60)).toThrow(RangeError);
    expect(() => numeroALetras(MAX_LETRAS + 1n)).toThrow(RangeError);
    expect(numeroALetras(MAX_LETRAS)).toMatch(/^NOVECIENTOS NOVENTA Y NUEVE MIL .* CUATRILLONES /);
    expect(() => importeConLetra(Number.NaN)).toThrow(RangeError);
  });
});
