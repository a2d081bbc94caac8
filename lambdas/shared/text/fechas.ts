// Spanish month names and long dates, as both services write them: narration reads dates aloud with the month
// names (lambdas/narration/core/normalize/dates.ts); documents print "15 de marzo de 2024" (templates' meta.ts,
// and the `date("long")` filter of the template realm, lambdas/documents/templating/realm-bootstrap.js, which
// keeps its own copy because the realm receives source text only).
export const MESES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const;

/**
 * A date written YYYY-MM-DD (optionally with THH:MM…) in long form: "15 de marzo de 2024", or
 * "15 de marzo de 2024, 10:42 h" with a time. The date as written: no time zone moves it. Anything else is
 * returned as given.
 */
export function fechaLarga(s: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(s);
  const mes = m ? MESES[Number(m[2]) - 1] : undefined;
  if (!m || !mes) return s;
  const day = `${Number(m[3])} de ${mes} de ${m[1]}`;
  return m[4] ? `${day}, ${m[4]}:${m[5]} h` : day;
}
