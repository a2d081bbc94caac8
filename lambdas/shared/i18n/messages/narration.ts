// Error messages (code → [English, Spanish]) of the one catalogue, ../error-catalogue.ts, which explains the format.
// Narration: conversions, audio, feeds, podcast and chapters.

export const NARRATION_MESSAGES = {
  // ---- narration: conversions ----------------------------------------------------------------------------------
  free_tier_limit: [
    'Free tier limit reached: {n} conversions per {@period} per IP address. Try again in {s} seconds, or use an API key of a paid plan (no limits).',
    'Llegaste al límite del plan gratuito: {n} conversiones por {@period} por dirección IP. Vuelve a intentarlo en {s} segundos, o usa una clave de API de un plan de pago (sin límites).',
  ],
  demo_limit: [
    'Demo limit reached: {n} demos per {@period} per IP address. Try again in {s} seconds, or use POST /convert/text, which has its own free allowance and takes up to 100,000 characters.',
    'Llegaste al límite de la demo: {n} demos por {@period} por dirección IP. Vuelve a intentarlo en {s} segundos, o usa POST /convert/text, que tiene su propio cupo gratuito y admite hasta 100,000 caracteres.',
  ],
  deadline_limit: [
    "Too many of this address's requests ran past the {n}-per-hour allowance of requests cut at their deadline: {@advice}, or try again in {s} seconds.",
    'Demasiadas solicitudes de esta dirección superaron el cupo de {n} por hora de solicitudes cortadas por tiempo: {@advice}, o vuelve a intentarlo en {s} segundos.',
  ],
  conversion_failed_reason: [
    'The conversion failed ({@reason}). Please retry; this attempt was not counted against your limits.',
    'La conversión falló ({@reason}). Vuelve a intentarlo; este intento no se contó en tus límites.',
  ],
  conversion_failed_new_key: [
    'The conversion failed ({@reason}). Please retry with a new Idempotency-Key; this attempt was not counted against your limits.',
    'La conversión falló ({@reason}). Vuelve a intentarlo con una Idempotency-Key nueva; este intento no se contó en tus límites.',
  ],
  conversion_unavailable: [
    'The conversion could not be completed because a backing service is unavailable. Please retry; this attempt was not counted against your limits.',
    'La conversión no se pudo completar porque un servicio interno no está disponible. Vuelve a intentarlo; este intento no se contó en tus límites.',
  ],
  conversion_failed: [
    'The conversion failed. Please submit the text again.',
    'La conversión falló. Envía el texto de nuevo.',
  ],
  conversion_stalled: [
    'The conversion stopped responding after its last attempt. Please submit the text again.',
    'La conversión dejó de responder tras su último intento. Envía el texto de nuevo.',
  ],
  narration_failed_attempts: [
    'Narration failed after {n} attempts ({@reason}). Please submit the text again.',
    'La narración falló tras {n} intentos ({@reason}). Envía el texto de nuevo.',
  ],
  job_unreadable: [
    'The job could not be read back (its text expired or its voice was withdrawn). Please submit it again.',
    'No se pudo recuperar el trabajo (su texto caducó o su voz se retiró). Envíalo de nuevo.',
  ],
  job_not_charged: [
    'Not accepted: its request ended before the conversion was charged. Please submit it again.',
    'No aceptada: su solicitud terminó antes de cobrar la conversión. Envíala de nuevo.',
  ],
  job_caller_503: [
    'Not accepted: the caller was answered 503.',
    'No aceptada: al solicitante se le respondió 503.',
  ],
  job_free_limit: [
    'Not accepted: the free tier limit was reached.',
    'No aceptada: se alcanzó el límite del plan gratuito.',
  ],
  nothing_to_narrate: [
    'The text has nothing to narrate (it is empty or only whitespace).',
    'El texto no tiene nada que narrar (está vacío o solo tiene espacios).',
  ],
  text_no_letters: [
    'Text has nothing to read aloud: it contains no letters or digits',
    'El texto no tiene nada que leer en voz alta: no contiene letras ni dígitos',
  ],
  voice_unknown: [
    "Unknown voice '{voice}'. Use one of: {voices} (see GET /voices).",
    "Voz desconocida '{voice}'. Usa una de estas: {voices} (consulta GET /voices).",
  ],
  voice_engine_unavailable: [
    'The voice {voice} has no {engine} engine. Its engines: {engines} (see GET /voices).',
    'La voz {voice} no tiene el motor {engine}. Sus motores: {engines} (consulta GET /voices).',
  ],
  demo_mp3_only: [
    "The demo produces MP3 only. Leave fmt out (or send 'mp3'), or use POST /convert/text for WAV or OGG.",
    "La demo solo produce MP3. No envíes fmt (o envía 'mp3'), o usa POST /convert/text para WAV u OGG.",
  ],
  name_format: [
    'A name is 1-64 letters, digits, "-" or "_", starting with a letter or digit',
    'Un nombre tiene de 1 a 64 letras, dígitos, "-" o "_", y empieza por letra o dígito',
  ],

  // ---- narration: audio --------------------------------------------------------------------------------------------
  audio_id_format: [
    'audio_id should be the id returned by a convert endpoint (letters, digits, _ and -)',
    'audio_id debe ser el id que devolvió un endpoint de conversión (letras, dígitos, _ y -)',
  ],
  audio_id_format_ext: [
    'audio_id should be the id returned by a convert endpoint, optionally followed by .mp3, .wav or .ogg',
    'audio_id debe ser el id que devolvió un endpoint de conversión, opcionalmente seguido de .mp3, .wav u .ogg',
  ],
  audio_id_format_no_ext: [
    'audio_id should be the id returned by a convert endpoint (without .mp3, .wav or .ogg)',
    'audio_id debe ser el id que devolvió un endpoint de conversión (sin .mp3, .wav ni .ogg)',
  ],
  audio_not_found: [
    'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
    'No se encontró el audio. Puede que haya caducado; el audio se guarda un tiempo limitado tras la conversión.',
  ],
  audio_not_found_delete: [
    'Audio not found. Only the account that made it (or, without an API key, the same address within a day) can delete it.',
    'No se encontró el audio. Solo puede borrarlo la cuenta que lo creó (o, sin clave de API, la misma dirección durante un día).',
  ],
  audio_expired: [
    'This audio expired on {date} (its retention ended) and is no longer available. Convert the text again to get a new one.',
    'Este audio caducó el {date} (terminó su conservación) y ya no está disponible. Convierte el texto de nuevo para obtener uno nuevo.',
  ],
  audio_other_format: [
    'This audio was produced as {fmt}: fetch {path}.',
    'Este audio se produjo como {fmt}: descarga {path}.',
  ],
  audio_no_segments: [
    'This audio was produced as {fmt} in one file and has no MP3 segments to stream: fetch {path}.',
    'Este audio se produjo como {fmt} en un solo archivo y no tiene segmentos MP3 para transmitir: descarga {path}.',
  ],
  segment_format: [
    'segment should be <n>.mp3, n a segment number from 0 as listed in stream.m3u8',
    'segment debe ser <n>.mp3, con n un número de segmento desde 0 como lo lista stream.m3u8',
  ],
  segment_missing: [
    'This audio has no segment {n}: its playlist (stream.m3u8) lists the segments there are.',
    'Este audio no tiene el segmento {n}: su lista (stream.m3u8) muestra los segmentos que hay.',
  ],
  segment_not_ready: [
    'Segment {n} is not ready yet: reload the playlist (stream.m3u8), it lists the segments ready so far.',
    'El segmento {n} aún no está listo: recarga la lista (stream.m3u8), muestra los segmentos listos hasta ahora.',
  ],
  timings_format: ["format should be 'json' or 'vtt'", "format debe ser 'json' o 'vtt'"],
  timings_failed: ['The conversion failed: it has no timings.', 'La conversión falló: no tiene tiempos.'],
  timings_none: [
    'This audio has no timings (it was converted before timings were recorded).',
    'Este audio no tiene tiempos (se convirtió antes de que se registraran).',
  ],
  retention_free_fixed: [
    'The free tier keeps audio {days} days (fixed); leave retention_days out, or use an API key of a paid plan to choose 1 to {max} days.',
    'El plan gratuito guarda el audio {days} días (fijo); no envíes retention_days, o usa una clave de API de un plan de pago para elegir de 1 a {max} días.',
  ],
  retention_max: [
    'retention_days can be at most {max} for your plan.',
    'retention_days puede ser como máximo {max} en tu plan.',
  ],

  // ---- Narration: feeds, podcast and chapters -------------------------------------------------------------------
  audio_id_plain: [
    'audio_id should be the id returned by a convert endpoint',
    'audio_id debe ser el id que devolvió un endpoint de conversión',
  ],
  audio_not_found_short: [
    'Audio not found. It may have expired.',
    'Audio no encontrado. Puede que haya caducado.',
  ],
  chapters_failed: ['The conversion failed: it has no chapters.', 'La conversión falló: no tiene capítulos.'],
  feed_url_format: ['An http(s) address', 'Una dirección http(s)'],
  feed_language_format: ['A language tag like "es" or "es-MX"', 'Una etiqueta de idioma como "es" o "es-MX"'],
  feed_delete_audio: ['audio is "keep" (default) or "delete".', 'audio es "keep" (por omisión) o "delete".'],
  feed_not_found: ['Feed not found.', 'Feed no encontrado.'],
  feeds_paid_only: [
    'Feeds are part of the paid plans: send "Authorization: Bearer <key>" with the key of a Pro, Lifetime or Scale plan.',
    'Los feeds son parte de los planes de pago: envía "Authorization: Bearer <key>" con la clave de un plan Pro, Lifetime o Scale.',
  ],
  feed_unknown_voice: [
    "Unknown voice '{voice}' (see GET /voices).",
    "Voz desconocida '{voice}' (consulta GET /voices).",
  ],
  feeds_too_many: [
    'An account may register at most {n} feeds; delete one first.',
    'Una cuenta puede registrar como máximo {n} feeds; borra uno primero.',
  ],
  feed_already_registered: [
    'This feed is already registered for your account.',
    'Este feed ya está registrado en tu cuenta.',
  ],
  feed_paused: [
    'The feed is paused: resume it first (PATCH {"status": "active"}).',
    'El feed está en pausa: reanúdalo primero (PATCH {"status": "active"}).',
  ],
  page_url_invalid: [
    'url should be the http(s) address of the page.',
    'url debe ser la dirección http(s) de la página.',
  ],
  page_not_in_feed: [
    'This page is not in the feed (yet): the next poll will find it.',
    'Esta página no está (aún) en el feed: la próxima lectura del feed la encontrará.',
  ],
  page_not_narrated: ['This page has no narration yet.', 'Esta página aún no tiene narración.'],
  listen_article_unknown: ['The feed does not list this article.', 'El feed no incluye este artículo.'],
  listen_days: ['days should be a whole number from 1 to {n}.', 'days debe ser un número entero de 1 a {n}.'],
  timings_offsets: ["offsets should be 'utf16' or 'letters'", "offsets debe ser 'utf16' o 'letters'"],
  listen_article_format: [
    "An article key (from the player's lookup)",
    'Una clave de artículo (la que da la consulta del reproductor)',
  ],
  feed_id_format: ['A feed id (fd_…)', 'Un id de feed (fd_…)'],
} as const satisfies Record<string, readonly [en: string, es: string]>;
