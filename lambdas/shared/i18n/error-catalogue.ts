// The one catalogue of the human messages both services answer errors with: code → [English, Spanish]. The key is
// the stable machine-readable code (answered in X-Error-Code); the English text is what the code throws, with
// `{name}` where a value goes (copied as it is) and `{@name}` where the value is itself translated (a nested message,
// or a word of TERMS). The entries are data, in ./messages, one JSON file per area (imported as JSON modules, so
// every code stays a typed key); this file joins them. Read by ./errors.ts; test/unit/error-catalogue.test.ts fails
// when a message the sources can throw has no entry, an entry is not exactly [English, Spanish] or lacks Spanish,
// or a code is declared in two parts. Keep field names, headers, paths and values in the Spanish as they are: they
// are what the caller types.

import documents from './messages/documents.json';
import narrationInput from './messages/narration-input.json';
import narration from './messages/narration.json';
import platform from './messages/platform.json';

/** A part's entries, typed by their codes: [English, Spanish] (the unit test checks each is exactly that). */
type Part<T> = { readonly [Code in keyof T]: readonly [en: string, es: string] };
const part = <T extends Record<string, readonly string[]>>(messages: T) => messages as unknown as Part<T>;

const PLATFORM_MESSAGES = part(platform);
const NARRATION_MESSAGES = part(narration);
const NARRATION_INPUT_MESSAGES = part(narrationInput);
const DOCUMENTS_MESSAGES = part(documents);

/** The catalogue's parts, one file per area (./messages): a code is declared in exactly one of them. */
export const CATALOGUE_PARTS = {
  /** Both services' shared surfaces: the HTTP layer, validation items, idempotency, keys, plans and payments,
   * webhooks, growth (A/B, waitlist, dashboard). */
  platform: PLATFORM_MESSAGES,
  /** Narration: conversions, audio, feeds, podcast and chapters. */
  narration: NARRATION_MESSAGES,
  /** Narration's inputs: PDF upload and reading, URL fetching and articles, SSML and lexicons. */
  'narration-input': NARRATION_INPUT_MESSAGES,
  /** Documents: requests, rendering, template data, stamped CFDI XML, CFDI batches. */
  documents: DOCUMENTS_MESSAGES,
} as const;

export const ERROR_MESSAGES = {
  ...PLATFORM_MESSAGES,
  ...NARRATION_MESSAGES,
  ...NARRATION_INPUT_MESSAGES,
  ...DOCUMENTS_MESSAGES,
};

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * Words and phrases that fill a `{@name}` and are not messages of their own: periods, plan wording, the kinds of a
 * non-PDF file, address ranges (ipaddr.js names), content types, what a limit counts.
 */
export const TERMS: Record<string, string> = {
  hour: 'hora',
  day: 'día',
  month: 'mes',
  minute: 'minuto',
  '1 character': '1 carácter',
  '1 item': '1 elemento',
  // lapsed keys: "<what> of this API key <why>"
  'The plan': 'El plan',
  'The Pro subscription': 'La suscripción Pro',
  'The Scale subscription': 'La suscripción Scale',
  'The Lifetime subscription': 'La suscripción Lifetime',
  'was canceled': 'se canceló',
  'is unpaid (the last invoice could not be charged)':
    'tiene un pago pendiente (no se pudo cobrar la última factura)',
  'has not been paid yet': 'aún no se ha pagado',
  'expired before its first payment': 'venció antes de su primer pago',
  'is paused': 'está en pausa',
  // payment provider actions
  'start a checkout': 'iniciar el pago',
  'open the customer portal': 'abrir el portal de cliente',
  'look up the checkout': 'consultar el pago',
  // growth limits
  'A/B events': 'eventos A/B',
  'waitlist sign-ups': 'registros en la lista de espera',
  'listen beacons': 'avisos de escucha',
  'first plays': 'primeras reproducciones',
  // sniffed file kinds
  'plain text': 'texto sin formato',
  'not a PDF': 'otro tipo de archivo',
  'a PNG image': 'una imagen PNG',
  'a JPEG image': 'una imagen JPEG',
  'a GIF image': 'una imagen GIF',
  'a WebP image': 'una imagen WebP',
  'a ZIP archive or Office document (DOCX, XLSX, ODT...)':
    'un archivo ZIP o un documento de Office (DOCX, XLSX, ODT...)',
  'an old Word/Excel document': 'un documento antiguo de Word/Excel',
  'a RTF document': 'un documento RTF',
  'a PostScript file': 'un archivo PostScript',
  'an HTML page': 'una página HTML',
  'content of no declared type': 'contenido sin tipo declarado',
  'connection failed': 'falló la conexión',
  // address ranges (ipaddr.js)
  loopback: 'la propia máquina (loopback)',
  private: 'una red privada',
  linkLocal: 'una dirección de enlace local',
  uniqueLocal: 'una red privada (IPv6 única local)',
  unspecified: 'una dirección sin especificar',
  reserved: 'un rango reservado',
  carrierGradeNat: 'una red del proveedor (CGNAT)',
  multicast: 'multidifusión',
  broadcast: 'difusión',
  invalid: 'no válida',
  'the narration failed': 'la narración falló',
  'unknown error': 'error desconocido',
  // The advice of the deadline-cut allowance (lambdas/shared/quota/cut-budget.ts), per service.
  'send shorter texts (long ones are queued and answered 202)':
    'envía textos más cortos (los largos se encolan y se responden con 202)',
  'send smaller documents (fewer rows or parts), or render large ones with options.async (Scale plan)':
    'envía documentos más pequeños (menos filas o partes), o genera los grandes con options.async (plan Scale)',
};

/** Values with a number or a list in them: "5 characters", "'mp3', 'wav' or 'ogg'". */
export const TERM_PATTERNS: [RegExp, string][] = [
  [/^(\d+) characters$/, '$1 caracteres'],
  [/^(\d+) items$/, '$1 elementos'],
  [/^(.*)' or '([^']*)'$/, "$1' o '$2'"],
];
