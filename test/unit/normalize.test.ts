// Reading rules (lambdas/narration/core/normalize): table-driven cases per rule family and per voice locale. The
// safety properties and narrate()'s use of the rules are in normalize-safety.test.ts.
import { normalizeForSpeech } from '../../lambdas/narration/core/normalize';
import { cardinal, needsDe, ordinal } from '../../lambdas/narration/core/normalize/number-words';
import { detectNumberStyle, parseNumeral } from '../../lambdas/narration/core/normalize/numerals';
import { romanValue } from '../../lambdas/narration/core/normalize/roman';
import type { Lang } from '../../lambdas/narration/core/voices';

const norm = (text: string, lang: Lang) => normalizeForSpeech(text, lang, { strict: true });

/** [input, es-MX reading, es-ES reading (same as es-MX when omitted)] */
type Case = [string, string, string?];

function table(name: string, cases: Case[]): void {
  describe(name, () => {
    it.each(
      cases.flatMap(([input, mx, es]) => [
        ['es-MX', input, mx],
        ['es-ES', input, es ?? mx],
      ]),
    )('%s %j', (lang, input, expected) => {
      expect(norm(input, lang as Lang)).toBe(expected);
    });
  });
}

describe('number words', () => {
  it.each([
    [0, {}, 'cero'],
    [1, {}, 'uno'],
    [1, { apocope: true }, 'un'],
    [1, { gender: 'f' }, 'una'],
    [16, {}, 'dieciséis'],
    [21, {}, 'veintiuno'],
    [21, { apocope: true }, 'veintiún'],
    [21, { gender: 'f' }, 'veintiuna'],
    [22, {}, 'veintidós'],
    [31, { apocope: true }, 'treinta y un'],
    [100, {}, 'cien'],
    [101, { gender: 'f' }, 'ciento una'],
    [115, {}, 'ciento quince'],
    [200, { gender: 'f' }, 'doscientas'],
    [555, {}, 'quinientos cincuenta y cinco'],
    [777, {}, 'setecientos setenta y siete'],
    [999, {}, 'novecientos noventa y nueve'],
    [1000, {}, 'mil'],
    [1001, {}, 'mil uno'],
    [2024, {}, 'dos mil veinticuatro'],
    [21000, {}, 'veintiún mil'],
    [21000, { gender: 'f', apocope: true }, 'veintiún mil'],
    [200000, { gender: 'f' }, 'doscientas mil'],
    [1_000_000, {}, 'un millón'],
    [2_000_000, {}, 'dos millones'],
    [21_000_000, {}, 'veintiún millones'],
    [201_000_000, { gender: 'f' }, 'doscientos un millones'],
    [1_000_000_000, {}, 'mil millones'],
    [2_500_000_000, {}, 'dos mil quinientos millones'],
    [1_000_000_000_000, {}, 'un billón'],
    [
      123_456_789,
      {},
      'ciento veintitrés millones cuatrocientos cincuenta y seis mil setecientos ochenta y nueve',
    ],
    [10n ** 18n, {}, 'un trillón'],
  ] as const)('cardinal(%p, %j) = %s', (n, opts, expected) => {
    expect(cardinal(n, opts)).toBe(expected);
  });

  it('reads more than 24 digits one by one, and knows when a noun needs "de"', () => {
    expect(cardinal('1'.repeat(25))).toBe(Array(25).fill('uno').join(' '));
    expect(needsDe(2_000_000)).toBe(true);
    expect(needsDe(2_000_001)).toBe(false);
    expect(needsDe(1000)).toBe(false);
  });

  it.each([
    [1, {}, 'primero'],
    [1, { apocope: true }, 'primer'],
    [3, { apocope: true }, 'tercer'],
    [2, { gender: 'f' }, 'segunda'],
    [3, { plural: true }, 'terceros'],
    [10, {}, 'décimo'],
    [11, {}, 'undécimo'],
    [12, { gender: 'f' }, 'duodécima'],
    [13, {}, 'decimotercero'],
    [18, {}, 'decimoctavo'],
    [21, {}, 'vigésimo primero'],
    [21, { apocope: true }, 'vigésimo primer'],
    [21, { gender: 'f' }, 'vigésima primera'],
    [100, {}, 'centésimo'],
    [101, {}, 'centésimo primero'],
    [1000, {}, 'milésimo'],
    [2024, {}, 'dosmilésimo vigésimo cuarto'],
  ] as const)('ordinal(%p, %j) = %s', (n, opts, expected) => {
    expect(ordinal(n, opts)).toBe(expected);
  });

  it.each([
    ['1,234', 'MX', { int: '1234' }],
    ['1,234', 'ES', { int: '1', frac: '234' }],
    ['1.234', 'MX', { int: '1', frac: '234' }],
    ['1.234', 'ES', { int: '1234' }],
    ['1,234.56', 'ES', { int: '1234', frac: '56' }],
    ['1.234,56', 'MX', { int: '1234', frac: '56' }],
    ['1.234.567', 'MX', { int: '1234567' }],
    ['3,5', 'MX', { int: '3', frac: '5' }],
    ['1.2.3', 'MX', undefined],
  ] as const)('parseNumeral(%s, %s)', (s, style, expected) => {
    expect(parseNumeral(s, style)).toEqual(expected);
  });

  it("tells a text's number convention only from numbers that prove it", () => {
    expect(detectNumberStyle('1.234.567 y 2.000.000')).toBe('ES');
    expect(detectNumberStyle('1,234.56 y 1,000,000')).toBe('MX');
    expect(detectNumberStyle('1.234,5')).toBe('ES');
    expect(detectNumberStyle('1.234 y 1,234 y 03.04.2024 y 192.168.1.1')).toBeUndefined();
    expect(detectNumberStyle('1.234.567 y 1,234,567')).toBeUndefined();
  });

  it('knows roman numerals', () => {
    expect([
      romanValue('XXI'),
      romanValue('iv'),
      romanValue('MCMXCIX'),
      romanValue('IIII'),
      romanValue('VX'),
    ]).toEqual([21, 4, 1999, undefined, undefined]);
  });
});

table('dates', [
  ['03/04/2024', 'tres de abril de dos mil veinticuatro'],
  ['3-4-2024', 'tres de abril de dos mil veinticuatro'],
  ['3.4.2024', 'tres de abril de dos mil veinticuatro'],
  ['2024-04-03', 'tres de abril de dos mil veinticuatro'],
  ['3 abr 2024', 'tres de abril de dos mil veinticuatro'],
  ['03-abr-24', 'tres de abril del veinticuatro'],
  ['01/05/2024', 'primero de mayo de dos mil veinticuatro', 'uno de mayo de dos mil veinticuatro'],
  ['el 1 de mayo', 'el primero de mayo', 'el uno de mayo'],
  ['21 de marzo de 1999', 'veintiuno de marzo de mil novecientos noventa y nueve'],
  ['el 15/09', 'el quince de septiembre'],
  ['del 5-10 de junio', 'del cinco al diez de junio'],
  ['04/13/2024', 'trece de abril de dos mil veinticuatro'],
  ['2024-04-03T10:30:00Z', 'tres de abril de dos mil veinticuatro, a las diez treinta'],
  ['29/02/2023', 'veintinueve/cero dos/dos mil veintitrés'], // no such day: left to the number rule
  ['versión 2.1.15', 'versión dos punto uno punto quince'], // dotted dates need a four-digit year
]);

table('times', [
  ['10:30 h', 'diez treinta horas'],
  ['a las 10.30 h', 'a las diez treinta horas'],
  ['18:05 hrs', 'dieciocho cero cinco horas'],
  ['10:30', 'diez treinta'],
  ['a las 10:00', 'a las diez en punto'],
  ['a la 1:15', 'a la una quince'],
  ['21 h', 'veintiuna horas'],
  ['9 a. m.', 'nueve de la mañana.'],
  ['a las 9 a. m. en punto', 'a las nueve de la mañana en punto'],
  ['9:15 p.m. hoy', 'nueve quince de la noche hoy'],
  ['3 am', 'tres de la madrugada'],
  ['12 p. m., dijo', 'doce del mediodía, dijo'],
  ['Salimos a las 7 p. m. Llegamos tarde.', 'Salimos a las siete de la tarde. Llegamos tarde.'],
]);

table('ordinals', [
  ['1.º', 'primero'],
  ['el 1.er piso', 'el primer piso'],
  ['el 1.º piso', 'el primer piso'],
  ['la 2.ª vez', 'la segunda vez'],
  ['los 3.os lugares', 'los terceros lugares'],
  ['las 2.as partes', 'las segundas partes'],
  ['1º y 2ª', 'primero y segunda'],
  ['el 3er lugar', 'el tercer lugar'],
  ['5to grado y 2da llamada', 'quinto grado y segunda llamada'],
  ['el 21.º', 'el vigésimo primero'],
  ['1° de mayo', 'primero de mayo'],
  ['hace 25° afuera', 'hace veinticinco grados afuera'],
]);

table('currency', [
  ['$1,234.56 MXN', 'mil doscientos treinta y cuatro pesos con cincuenta y seis centavos'],
  [
    '$1,234.56',
    'mil doscientos treinta y cuatro pesos con cincuenta y seis centavos',
    'mil doscientos treinta y cuatro dólares con cincuenta y seis centavos',
  ],
  ['$20', 'veinte pesos', 'veinte dólares'],
  ['USD 20', 'veinte dólares'],
  ['US$20', 'veinte dólares'],
  ['$100 USD', 'cien dólares'],
  ['20 dólares', 'veinte dólares'],
  ['1.234,56 €', 'mil doscientos treinta y cuatro euros con cincuenta y seis céntimos'],
  ['€1.234,56', 'mil doscientos treinta y cuatro euros con cincuenta y seis céntimos'],
  ['EUR 5', 'cinco euros'],
  ['3,50 euros', 'tres euros con cincuenta céntimos'],
  ['$1', 'un peso', 'un dólar'],
  ['$21', 'veintiún pesos', 'veintiún dólares'],
  ['$0.50', 'cincuenta centavos'],
  ['$1,000.00 M.N.', 'mil pesos'],
  ['$2,000,000', 'dos millones de pesos', 'dos millones de dólares'],
  ['$1.5 millones', 'uno punto cinco millones de pesos', 'uno coma cinco millones de dólares'],
  ['£21', 'veintiuna libras'],
  ['-$50', 'menos cincuenta pesos', 'menos cincuenta dólares'],
]);

table('percentages', [
  ['15 %', 'quince por ciento'],
  ['15%', 'quince por ciento'],
  ['3,5 %', 'tres punto cinco por ciento', 'tres coma cinco por ciento'],
  ['3.5%', 'tres punto cinco por ciento', 'tres coma cinco por ciento'],
  ['100%', 'cien por ciento'],
  ['-2 %', 'menos dos por ciento'],
  ['5 ‰', 'cinco por mil'],
]);

const MX_PHONE = 'cincuenta y cinco, doce treinta y cuatro, cincuenta y seis setenta y ocho';
table('phones', [
  ['55 1234 5678', MX_PHONE],
  ['+52 55 1234 5678', `más cincuenta y dos, ${MX_PHONE}`],
  ['(55) 1234-5678', MX_PHONE],
  ['55-1234-5678', MX_PHONE],
  ['912 345 678', 'novecientos doce, trescientos cuarenta y cinco, seiscientos setenta y ocho'],
  [
    '+34 91 234 56 78',
    'más treinta y cuatro, noventa y uno, doscientos treinta y cuatro, cincuenta y seis, setenta y ocho',
  ],
  ['Tel. 5512345678', `teléfono ${MX_PHONE}`],
  [
    'llámanos al 800 123 4567',
    'llámanos al ochocientos, ciento veintitrés, cuarenta y cinco sesenta y siete',
  ],
  ['1234-5678', 'doce treinta y cuatro, cincuenta y seis setenta y ocho'],
  ['01 800 0000', 'cero uno, ochocientos, cero cero cero cero'],
]);

table('abbreviations', [
  ['El Sr. Pérez y la Sra. Ruiz', 'El señor Pérez y la señora Ruiz'],
  ['Srta. Gómez', 'señorita Gómez'],
  ['Dr. Soto, Dra. Luna', 'doctor Soto, doctora Luna'],
  [
    'Lic. Ana, Ing. Luis, Arq. Eva, Mtro. Juan',
    'licenciado Ana, ingeniero Luis, arquitecto Eva, maestro Juan',
  ],
  ['Av. Reforma', 'avenida Reforma'],
  ['Col. Roma', 'colonia Roma', 'Col. Roma'],
  ['Toluca, Edo. Méx.', 'Toluca, Estado de México.'],
  ['C.P. 06600', 'código postal cero seis seis cero cero'],
  ['art. 27', 'artículo veintisiete'],
  ['núm. 5', 'número cinco'],
  ['No. 5', 'número cinco'],
  ['No. Eso no.', 'No. Eso no.'],
  ['pág. 3', 'página tres'],
  ['1 pág.', 'una página'],
  ['págs. 10-20', 'páginas de diez a veinte'],
  ['tel. directo', 'teléfono directo'],
  ['frutas, verduras, etc. Luego', 'frutas, verduras, etcétera. Luego'],
  ['frutas, etc., y más', 'frutas, etcétera, y más'],
  ['p. ej. esto', 'por ejemplo esto'],
  ['p.ej. esto', 'por ejemplo esto'],
  ['Acme S.A. de C.V.', 'Acme ese a de ce ve.', 'Acme ese a de ce uve.'],
  ['en EE. UU. y EE.UU. Fin', 'en Estados Unidos y Estados Unidos. Fin'],
  ['año 300 a. C.', 'año trescientos antes de Cristo.'],
  ['Nº 7', 'número siete'],
]);

table('roman numerals', [
  ['Felipe II', 'Felipe segundo'],
  ['Felipe VI', 'Felipe sexto'],
  ['Isabel II', 'Isabel segunda'],
  ['Juan Pablo II', 'Juan Pablo segundo'],
  ['Alfonso XIII', 'Alfonso trece'],
  ['siglo XXI', 'siglo veintiuno'],
  ['siglo V', 'siglo quinto'],
  ['s. XIX', 'siglo diecinueve'],
  ['siglos XV y XVI', 'siglos quince y dieciséis'],
  ['capítulo IV', 'capítulo cuarto'],
  ['Capítulo XII', 'Capítulo doce'],
  ['escena II', 'escena segunda'],
  ['diabetes tipo II', 'diabetes tipo dos'],
  ['la II Guerra Mundial', 'la segunda Guerra Mundial'],
  ['el I Congreso', 'el primer Congreso'],
  ['las III Jornadas', 'las terceras Jornadas'],
  ['XXV Aniversario', 'vigésimo quinto Aniversario'],
  ['YO VI A MI AMIGO', 'YO VI A MI AMIGO'],
  ['Lo vi y le di mi libro', 'Lo vi y le di mi libro'],
  ['Rayos X', 'Rayos X'],
  ['talla XL', 'talla XL'],
]);

table('web and e-mail', [
  [
    'www.ejemplo.com.mx/precios',
    'ejemplo punto com punto eme equis diagonal precios',
    'ejemplo punto com punto eme equis barra precios',
  ],
  ['ana.lopez@correo.mx', 'ana punto lopez arroba correo punto eme equis'],
  [
    'Visita https://tienda.es/ofertas?utm=x.',
    'Visita tienda punto es diagonal ofertas.',
    'Visita tienda punto es barra ofertas.',
  ],
  ['en ejemplo.com.', 'en ejemplo punto com.'],
  ['síguenos en @mi_tienda', 'síguenos en arroba mi guion bajo tienda'],
  ['cnn.com/pagina2', 'ce ene ene punto com diagonal pagina dos', 'ce ene ene punto com barra pagina dos'],
  ['vw.mx', 've doble ve punto eme equis', 'uve uve doble punto eme equis'],
  // Generic domains are said as words, country codes spelled; a bare address is found by either.
  ['en tienda.shop y en datos.io', 'en tienda punto shop y en datos punto i o'],
]);

table('RFC, CURP and other codes', [
  ['RFC GODE561231GR8', 'RFC ge o de e, cinco seis uno dos tres uno, ge erre ocho'],
  [
    'CURP GODE561231HDFRRN09',
    'CURP ge o de e, cinco seis uno dos tres uno, hache, de efe, erre erre ene, cero nueve',
  ],
  ['DNI 12345678Z', 'DNI uno dos tres cuatro cinco seis siete ocho, zeta'],
  ['DNI 12345678A', 'DNI 12345678A'], // wrong check letter: not a DNI, left as written
  ['ABC991399XYZ', 'ABC991399XYZ'],
]);

table('plain numbers', [
  [
    'Hay 1,234 personas',
    'Hay mil doscientas treinta y cuatro personas',
    'Hay uno coma doscientos treinta y cuatro personas',
  ],
  [
    'Hay 1.234 libros',
    'Hay uno punto doscientos treinta y cuatro libros',
    'Hay mil doscientos treinta y cuatro libros',
  ],
  ['1.234.567', 'un millón doscientos treinta y cuatro mil quinientos sesenta y siete'],
  ['1,234.5', 'mil doscientos treinta y cuatro punto cinco', 'mil doscientos treinta y cuatro coma cinco'],
  ['3.14159', 'tres punto uno cuatro uno cinco nueve', 'tres coma uno cuatro uno cinco nueve'],
  ['0,05', 'cero punto cero cinco', 'cero coma cero cinco'],
  ['-5 grados', 'menos cinco grados'],
  ['21 páginas', 'veintiuna páginas'],
  ['1 año', 'un año'],
  ['1 de cada 3', 'uno de cada tres'],
  ['200 personas', 'doscientas personas'],
  ['200 mil personas', 'doscientas mil personas'],
  ['21 mil personas', 'veintiún mil personas'],
  ['2,000,000 habitantes', 'dos millones de habitantes'], // two commas can only group thousands
  ['de 10-20 años', 'de diez a veinte años'],
  ['10-20 años', 'de diez a veinte años'],
  ['entre 10-20 personas', 'entre diez y veinte personas'],
  ['ganó 3-1', 'ganó tres a uno'],
  ['versión 1.2.3', 'versión uno punto dos punto tres'],
  ['código 007', 'código cero cero siete'],
  ['COVID-19', 'COVID diecinueve'],
  ['MP3 y 4K', 'MP3 y 4K'],
  // The text's own convention wins over the locale's when its unambiguous numbers show one.
  [
    'Prestamos 48.250 libros con 1.284.000 euros.',
    'Prestamos cuarenta y ocho mil doscientos cincuenta libros con un millón doscientos ochenta y cuatro mil euros.',
  ],
  [
    'Vendimos 1,250 boletos por $1,234,000.',
    'Vendimos mil doscientos cincuenta boletos por un millón doscientos treinta y cuatro mil pesos.',
    'Vendimos mil doscientos cincuenta boletos por un millón doscientos treinta y cuatro mil dólares.',
  ],
]);

table('units and symbols', [
  ['5 km', 'cinco kilómetros'],
  ['1 kg', 'un kilo'],
  ['100 km/h', 'cien kilómetros por hora'],
  ['20 m²', 'veinte metros cuadrados'],
  ['25 °C', 'veinticinco grados Celsius'],
  ['36.5°', 'treinta y seis punto cinco grados', 'treinta y seis coma cinco grados'],
  ['2x1', 'dos por uno'],
  ['#1 en ventas', 'número uno en ventas'],
  ['3/4 de taza', 'tres cuartos de taza'],
  [
    '1/2 de leche, 2/3 de harina y 7/10 del total',
    'un medio de leche, dos tercios de harina y siete décimos del total',
  ],
  ['Pérez & Hijos', 'Pérez y Hijos'],
]);
