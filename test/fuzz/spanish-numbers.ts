// Spanish number words back to the number — an independent reader for the properties of the code that writes them
// (narration's reading rules, documents' importe con letra). Long scale, as Spanish counts: MIL = 10^3,
// MILLÓN = 10^6, MIL MILLONES = 10^9, BILLÓN = 10^12, TRILLÓN = 10^18. Accepts either case, the apocopated and
// feminine forms (UN, VEINTIÚN, UNA, DOSCIENTAS) and "Y". Returns undefined for a word it does not know.

const SMALL: Record<string, number> = {
  cero: 0,
  un: 1,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciséis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiún: 21,
  veintiuno: 21,
  veintiuna: 21,
  veintidós: 22,
  veintitrés: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiséis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
  treinta: 30,
  cuarenta: 40,
  cincuenta: 50,
  sesenta: 60,
  setenta: 70,
  ochenta: 80,
  noventa: 90,
  cien: 100,
  ciento: 100,
  doscientos: 200,
  doscientas: 200,
  trescientos: 300,
  trescientas: 300,
  cuatrocientos: 400,
  cuatrocientas: 400,
  quinientos: 500,
  quinientas: 500,
  seiscientos: 600,
  seiscientas: 600,
  setecientos: 700,
  setecientas: 700,
  ochocientos: 800,
  ochocientas: 800,
  novecientos: 900,
  novecientas: 900,
};

const SCALES: Record<string, bigint> = {
  millón: 10n ** 6n,
  millones: 10n ** 6n,
  billón: 10n ** 12n,
  billones: 10n ** 12n,
  trillón: 10n ** 18n,
  trillones: 10n ** 18n,
  cuatrillón: 10n ** 24n,
  cuatrillones: 10n ** 24n,
};

/** "mil doscientos treinta y cuatro" → 1234n; undefined if a word is not a number word. */
export function parseSpanishNumber(text: string): bigint | undefined {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  let total = 0n;
  let thousands = 0n; // value of the current group above 999 and below the next scale
  let small = 0n; // 0..999 being read
  let negative = false;
  for (const [i, w] of words.entries()) {
    if (w === 'menos' && i === 0) {
      negative = true;
      continue;
    }
    if (w === 'y') continue;
    if (w in SMALL) small += BigInt(SMALL[w]!);
    else if (w === 'mil') {
      thousands += (small === 0n ? 1n : small) * 1000n;
      small = 0n;
    } else if (w in SCALES) {
      const group = thousands + small;
      total += (group === 0n ? 1n : group) * SCALES[w]!;
      thousands = 0n;
      small = 0n;
    } else return undefined;
  }
  const n = total + thousands + small;
  return negative ? -n : n;
}
