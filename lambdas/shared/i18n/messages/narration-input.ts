// Error messages (code → [English, Spanish]) of the one catalogue, ../error-catalogue.ts, which explains the format.
// Narration's inputs: PDF upload and reading, URL fetching and articles, SSML and lexicons.

export const NARRATION_INPUT_MESSAGES = {
  // ---- narration: PDF upload and reading --------------------------------------------------------------------------
  upload_slot_limit: [
    'Too many upload slots: {n} per hour per IP address. Convert the uploads you have, try again in {s} seconds, or use an API key of a paid plan.',
    'Demasiados espacios de subida: {n} por hora por dirección IP. Convierte las subidas que ya tienes, vuelve a intentarlo en {s} segundos, o usa una clave de API de un plan de pago.',
  ],
  upload_id_format: [
    'upload_id should be the id returned by POST /convert/pdf/upload (upl_ followed by 22 characters)',
    'upload_id debe ser el id que devolvió POST /convert/pdf/upload (upl_ seguido de 22 caracteres)',
  ],
  upload_unknown: [
    'Unknown upload_id. Use the upload_id returned by POST /convert/pdf/upload (ids are kept for a day).',
    'upload_id desconocido. Usa el upload_id que devolvió POST /convert/pdf/upload (los ids se guardan un día).',
  ],
  upload_other_caller: [
    'This upload_id was issued to another caller. Convert it with the same API key (or, without a key, from the same IP address) that called POST /convert/pdf/upload, or ask for your own upload_id.',
    'Este upload_id se emitió para otro solicitante. Conviértelo con la misma clave de API (o, sin clave, desde la misma dirección IP) que llamó a POST /convert/pdf/upload, o pide tu propio upload_id.',
  ],
  upload_converted: [
    'This upload was already converted (audio_id {id}): an upload_id converts once. Fetch that audio, or upload the file again with a new POST /convert/pdf/upload.',
    'Esta subida ya se convirtió (audio_id {id}): un upload_id se convierte una sola vez. Descarga ese audio, o sube el archivo otra vez con un nuevo POST /convert/pdf/upload.',
  ],
  upload_converting: [
    'This upload is being converted by another request: an upload_id converts once. Fetch that audio, or upload the file again with a new POST /convert/pdf/upload.',
    'Otra solicitud está convirtiendo esta subida: un upload_id se convierte una sola vez. Descarga ese audio, o sube el archivo otra vez con un nuevo POST /convert/pdf/upload.',
  ],
  upload_expired: [
    'This upload_id expired at {at} (ids convert within {min} minutes). Ask POST /convert/pdf/upload for a new one and upload the file again.',
    'Este upload_id caducó a las {at} (los ids se convierten en un plazo de {min} minutos). Pide uno nuevo a POST /convert/pdf/upload y vuelve a subir el archivo.',
  ],
  upload_form_expired: [
    'Nothing was uploaded for this upload_id, and its upload form expired at {at}. Ask POST /convert/pdf/upload for a new one and send the file within {min} minutes.',
    'No se subió nada para este upload_id y su formulario de subida caducó a las {at}. Pide uno nuevo a POST /convert/pdf/upload y envía el archivo en menos de {min} minutos.',
  ],
  upload_missing: [
    'Nothing was uploaded for this upload_id yet. POST the file to the upload url with the fields returned by POST /convert/pdf/upload (before {at}), then call POST /convert/pdf again.',
    'Aún no se subió nada para este upload_id. Envía el archivo por POST a la url de subida con los campos que devolvió POST /convert/pdf/upload (antes de las {at}) y luego vuelve a llamar a POST /convert/pdf.',
  ],
  upload_too_large: [
    'The uploaded file is {bytes} bytes, over the {limit} limit. Split the PDF or reduce it (e.g. compress its images), then upload it again.',
    'El archivo subido tiene {bytes} bytes, más que el límite de {limit}. Divide el PDF o redúcelo (p. ej. comprime sus imágenes) y vuelve a subirlo.',
  ],
  upload_changed: [
    'This upload_id changed while it was checked. Please retry.',
    'Este upload_id cambió mientras se comprobaba. Vuelve a intentarlo.',
  ],
  pdf_empty: [
    'The uploaded file is empty (0 bytes). Select the PDF again and re-send it.',
    'El archivo subido está vacío (0 bytes). Selecciona el PDF de nuevo y vuelve a enviarlo.',
  ],
  pdf_no_header: [
    'The file is not a PDF (it has no %PDF- header). Upload a PDF file, or send text to /convert/text.',
    'El archivo no es un PDF (no tiene la cabecera %PDF-). Sube un archivo PDF, o envía el texto a /convert/text.',
  ],
  pdf_other_kind: [
    'The file is {@kind}, not a PDF. Export or save it as PDF and upload that, or send its text to /convert/text.',
    'El archivo es {@kind}, no un PDF. Expórtalo o guárdalo como PDF y sube ese, o envía su texto a /convert/text.',
  ],
  pdf_truncated: [
    'The PDF is incomplete: it has no end-of-file marker, so the upload or download was probably cut short. Upload the complete file again.',
    'El PDF está incompleto: no tiene marca de fin de archivo, así que probablemente la subida o la descarga se cortó. Sube de nuevo el archivo completo.',
  ],
  pdf_password: [
    'The PDF is protected with a password, so its text cannot be read. Open it, save or print a copy without a password (e.g. "Print to PDF"), and upload that copy.',
    'El PDF está protegido con contraseña, así que no se puede leer su texto. Ábrelo, guarda o imprime una copia sin contraseña (p. ej. «Imprimir a PDF») y sube esa copia.',
  ],
  pdf_damaged: [
    'The PDF is damaged and cannot be read ({reason}). Open it in a PDF viewer and save or export it again (e.g. "Print to PDF"), then upload the new file.',
    'El PDF está dañado y no se puede leer ({reason}). Ábrelo en un visor de PDF y vuelve a guardarlo o exportarlo (p. ej. «Imprimir a PDF»), y sube el archivo nuevo.',
  ],
  pdf_too_many_pages: [
    'The PDF has {pages} pages; at most {max} pages can be narrated at once. Split it into parts (e.g. by chapter) and convert each part.',
    'El PDF tiene {pages} páginas; se pueden narrar como máximo {max} de una vez. Divídelo en partes (p. ej. por capítulo) y convierte cada una.',
  ],
  pdf_too_complex: [
    'The PDF is too complex to read in the time or memory available (it may contain huge or deeply compressed content). Re-export it with "Print to PDF" or "Reduce file size", or split it, and upload it again.',
    'El PDF es demasiado complejo para leerlo con el tiempo o la memoria disponibles (puede tener contenido enorme o muy comprimido). Vuelve a exportarlo con «Imprimir a PDF» o «Reducir tamaño de archivo», o divídelo, y súbelo de nuevo.',
  ],
  pdf_too_much_text_partial: [
    'The PDF has more than {max} characters of text (counted in the first {n} of {pages} pages), the limit for one conversion (about {k}k found). Split it into parts (e.g. by chapter) and convert each part.',
    'El PDF tiene más de {max} caracteres de texto (contados en las primeras {n} de {pages} páginas), el límite de una conversión (se encontraron unos {k} mil). Divídelo en partes (p. ej. por capítulo) y convierte cada una.',
  ],
  pdf_too_much_text: [
    'The PDF has more than {max} characters of text, the limit for one conversion (about {k}k found). Split it into parts (e.g. by chapter) and convert each part.',
    'El PDF tiene más de {max} caracteres de texto, el límite de una conversión (se encontraron unos {k} mil). Divídelo en partes (p. ej. por capítulo) y convierte cada una.',
  ],
  pdf_no_text_one: [
    'The PDF has no text that can be read aloud: its page is only images or drawings, no text (e.g. a scan). Run text recognition (OCR) on it, e.g. "Recognize text" in your PDF app or ocrmypdf, and upload the result, or paste the text into /convert/text.',
    'El PDF no tiene texto que se pueda leer en voz alta: su página solo tiene imágenes o dibujos, sin texto (p. ej. un escaneo). Aplícale reconocimiento de texto (OCR), p. ej. «Reconocer texto» en tu aplicación de PDF u ocrmypdf, y sube el resultado, o pega el texto en /convert/text.',
  ],
  pdf_no_text: [
    'The PDF has no text that can be read aloud: its {pages} pages are only images or drawings, no text (e.g. a scan). Run text recognition (OCR) on it, e.g. "Recognize text" in your PDF app or ocrmypdf, and upload the result, or paste the text into /convert/text.',
    'El PDF no tiene texto que se pueda leer en voz alta: sus {pages} páginas solo tienen imágenes o dibujos, sin texto (p. ej. un escaneo). Aplícale reconocimiento de texto (OCR), p. ej. «Reconocer texto» en tu aplicación de PDF u ocrmypdf, y sube el resultado, o pega el texto en /convert/text.',
  ],

  // ---- narration: URL fetching and articles ----------------------------------------------------------------------
  url_refused_file: [
    '{@reason} Give the address of an article page (a web page, not a file).',
    '{@reason} Indica la dirección de la página de un artículo (una página web, no un archivo).',
  ],
  url_refused_single: [
    '{@reason} Give the address of a single article, or copy its text and send it to /convert/text.',
    '{@reason} Indica la dirección de un solo artículo, o copia su texto y envíalo a /convert/text.',
  ],
  url_refused_copy: [
    '{@reason} If the page opens in your browser, copy its text and send it to /convert/text.',
    '{@reason} Si la página abre en tu navegador, copia su texto y envíalo a /convert/text.',
  ],
  url_invalid: [
    'The URL is not a valid absolute address. Give the full address, starting with https://.',
    'La URL no es una dirección absoluta válida. Indica la dirección completa, empezando por https://.',
  ],
  url_scheme: [
    'Only http:// and https:// addresses can be fetched, not {scheme}//. Give the web address of the page.',
    'Solo se pueden descargar direcciones http:// y https://, no {scheme}//. Indica la dirección web de la página.',
  ],
  url_userinfo: [
    'Addresses with a user name or password (user:pass@host) are not fetched. Give the public address of the page.',
    'No se descargan direcciones con usuario o contraseña (usuario:clave@host). Indica la dirección pública de la página.',
  ],
  url_no_host: [
    'The URL has no host name. Give the full address of the page.',
    'La URL no tiene nombre de host. Indica la dirección completa de la página.',
  ],
  url_address_private: [
    'The address {address} is not on the public internet ({@range}); this service only fetches public web pages.',
    'La dirección {address} no está en internet público ({@range}); este servicio solo descarga páginas web públicas.',
  ],
  url_host_private: [
    "The host '{host}' resolves to an address that is not on the public internet ({@range}); this service only fetches public web pages.",
    "El host '{host}' se resuelve a una dirección que no está en internet público ({@range}); este servicio solo descarga páginas web públicas.",
  ],
  url_port: [
    "Port {port} is not fetched: only the standard web ports 80 (http) and 443 (https). Give the page's usual address.",
    'No se descarga del puerto {port}: solo de los puertos web estándar 80 (http) y 443 (https). Indica la dirección habitual de la página.',
  ],
  url_host_unknown: [
    "The host name '{host}' does not exist. Check the address for typos.",
    "El nombre de host '{host}' no existe. Revisa que la dirección esté bien escrita.",
  ],
  url_tls: [
    "The secure connection to '{host}' failed ({reason}). Check the address, or try its http:// form if the site has no valid certificate.",
    "Falló la conexión segura con '{host}' ({reason}). Revisa la dirección, o prueba su forma http:// si el sitio no tiene un certificado válido.",
  ],
  url_unreachable: [
    "The site '{host}' could not be reached ({@reason}). Check that the address opens in a browser.",
    "No se pudo llegar al sitio '{host}' ({@reason}). Comprueba que la dirección abre en un navegador.",
  ],
  url_slow: [
    'The site took longer than {s} s to send the page. Try again later.',
    'El sitio tardó más de {s} s en enviar la página. Vuelve a intentarlo más tarde.',
  ],
  url_connect_timeout: [
    "The site '{host}' did not accept a connection within {s} s. Try again later.",
    "El sitio '{host}' no aceptó la conexión en {s} s. Vuelve a intentarlo más tarde.",
  ],
  url_redirect_no_location: [
    'The page redirected ({status}) without saying where to.',
    'La página redirigió ({status}) sin decir adónde.',
  ],
  url_too_many_redirects: [
    'The page redirected more than {n} times. Give the address the browser finally shows.',
    'La página redirigió más de {n} veces. Indica la dirección que el navegador muestra al final.',
  ],
  url_redirect_invalid: [
    'The page redirected to an invalid address.',
    'La página redirigió a una dirección no válida.',
  ],
  url_http_status_text: [
    'The site answered {status} {text} instead of the page. Check that the address opens in a browser without logging in.',
    'El sitio respondió {status} {text} en vez de la página. Comprueba que la dirección abre en un navegador sin iniciar sesión.',
  ],
  url_http_status: [
    'The site answered {status} instead of the page. Check that the address opens in a browser without logging in.',
    'El sitio respondió {status} en vez de la página. Comprueba que la dirección abre en un navegador sin iniciar sesión.',
  ],
  url_content_type: [
    'The address serves {@type}, not {expected}.',
    'La dirección sirve {@type}, no {expected}.',
  ],
  url_private_connection: [
    'The connection reached an address that is not on the public internet; this service only fetches public web pages.',
    'La conexión llegó a una dirección que no está en internet público; este servicio solo descarga páginas web públicas.',
  ],
  url_too_large_mib: [
    'The page is larger than {n} MiB, the most this service reads.',
    'La página pesa más de {n} MiB, lo máximo que lee este servicio.',
  ],
  url_too_large_kib: [
    'The page is larger than {n} KiB, the most this service reads.',
    'La página pesa más de {n} KiB, lo máximo que lee este servicio.',
  ],
  url_encoding: [
    'The site sent the page in an unsupported encoding ({encoding}).',
    'El sitio envió la página con una codificación no admitida ({encoding}).',
  ],
  url_corrupt: [
    'The site sent a corrupt compressed page ({reason}).',
    'El sitio envió una página comprimida dañada ({reason}).',
  ],
  url_cut: ['The site closed the connection mid-page.', 'El sitio cerró la conexión a mitad de la página.'],
  article_script_only: [
    'The page builds its content with JavaScript in the browser, so it holds no article text to read. Copy the article text and send it to /convert/text instead.',
    'La página arma su contenido con JavaScript en el navegador, así que no trae texto de artículo que leer. Copia el texto del artículo y envíalo a /convert/text.',
  ],
  article_not_found: [
    'No article was found on this page: it looks like a home page, a list of links, a form or a page behind a login. Give the address of the article itself, or send its text to /convert/text.',
    'No se encontró un artículo en esta página: parece una portada, una lista de enlaces, un formulario o una página que pide iniciar sesión. Indica la dirección del artículo en sí, o envía su texto a /convert/text.',
  ],
  article_too_complex: [
    'The page has more than {n} elements, too many to look for an article in. Give the address of the article itself (a "print" or "AMP" version helps), or send its text to /convert/text.',
    'La página tiene más de {n} elementos, demasiados para buscar un artículo. Indica la dirección del artículo en sí (ayuda una versión «imprimir» o «AMP»), o envía su texto a /convert/text.',
  ],

  // ---- narration: SSML and lexicons ----------------------------------------------------------------------------
  ssml_invalid: [
    'Invalid SSML at line {line}, column {column}: {@reason}',
    'SSML no válido en la línea {line}, columna {column}: {@reason}',
  ],
  ssml_no_letters: [
    'The SSML has nothing to read aloud: it contains no letters or digits',
    'El SSML no tiene nada que leer en voz alta: no contiene letras ni dígitos',
  ],
  ssml_breaks_free: [
    'The <break> pauses add up to {s} s; a narration may hold at most {max} s of pauses on the free plan (each pause at most 10 s).',
    'Las pausas <break> suman {s} s; una narración puede tener como máximo {max} s de pausas en el plan gratuito (cada pausa, 10 s como máximo).',
  ],
  ssml_breaks: [
    'The <break> pauses add up to {s} s; a narration may hold at most {max} s of pauses on the {plan} plan (each pause at most 10 s).',
    'Las pausas <break> suman {s} s; una narración puede tener como máximo {max} s de pausas en el plan {plan} (cada pausa, 10 s como máximo).',
  ],
  ssml_break_strength: [
    '<break strength="{v}">: use one of {list}',
    '<break strength="{v}">: usa uno de {list}',
  ],
  ssml_break_long: ['<break time="{v}"> is longer than {max}s', '<break time="{v}"> dura más de {max}s'],
  ssml_break_time: [
    '<break time="{v}">: write a duration such as "2s" or "500ms"',
    '<break time="{v}">: escribe una duración como "2s" o "500ms"',
  ],
  ssml_break_empty: ['<break/> must be empty', '<break/> debe estar vacío'],
  ssml_emphasis_level: [
    '<emphasis level="{v}">: use one of {list}',
    '<emphasis level="{v}">: usa uno de {list}',
  ],
  ssml_lang_unsupported: [
    '<lang xml:lang="{v}"> is not supported; use one of {list}',
    '<lang xml:lang="{v}"> no está admitido; usa uno de {list}',
  ],
  ssml_lang_missing: [
    '<lang> needs xml:lang, e.g. xml:lang="en-US"',
    '<lang> necesita xml:lang, p. ej. xml:lang="en-US"',
  ],
  ssml_sayas_format: [
    '<say-as format="{v}">: only interpret-as="date" takes a format (dmy, mdy, ymd, dm, md)',
    '<say-as format="{v}">: solo interpret-as="date" admite format (dmy, mdy, ymd, dm, md)',
  ],
  ssml_sayas_date_hint: [
    '<say-as interpret-as="{as}"> cannot read "{v}" (write it as 03/04/2024, or give format="mdy" / "ymd")',
    '<say-as interpret-as="{as}"> no puede leer "{v}" (escríbelo como 03/04/2024, o indica format="mdy" / "ymd")',
  ],
  ssml_sayas_cannot: [
    '<say-as interpret-as="{as}"> cannot read "{v}"',
    '<say-as interpret-as="{as}"> no puede leer "{v}"',
  ],
  ssml_sayas_unsupported: [
    '<say-as interpret-as="{as}"> is not supported; use {list}',
    '<say-as interpret-as="{as}"> no está admitido; usa {list}',
  ],
  ssml_sayas_missing: [
    '<say-as> needs interpret-as (characters, digits, date or telephone)',
    '<say-as> necesita interpret-as (characters, digits, date o telephone)',
  ],
  ssml_speak_root_only: ['<speak> may only be the root element', '<speak> solo puede ser el elemento raíz'],
  ssml_sub_alias_long: [
    '<sub alias> is longer than 200 characters',
    '<sub alias> tiene más de 200 caracteres',
  ],
  ssml_sub_alias: [
    '<sub> needs an alias with the words to say',
    '<sub> necesita un alias con las palabras que se dirán',
  ],
  ssml_sub_content: [
    '<sub> needs the written words as content',
    '<sub> necesita como contenido las palabras escritas',
  ],
  ssml_attribute_allowed: [
    '<{el}> has no attribute "{attr}" (allowed: {list})',
    '<{el}> no tiene el atributo "{attr}" (permitidos: {list})',
  ],
  ssml_attribute: ['<{el}> has no attribute "{attr}"', '<{el}> no tiene el atributo "{attr}"'],
  ssml_element_unsupported: [
    '<{el}> is not supported; use only {list}',
    '<{el}> no está admitido; usa solo {list}',
  ],
  ssml_text_only: [
    '<{el}> may contain only text, not <{inner}>',
    '<{el}> solo puede contener texto, no <{inner}>',
  ],
  ssml_not_inside: ['<{el}> may not appear inside <{outer}>', '<{el}> no puede aparecer dentro de <{outer}>'],
  ssml_must_start: [
    'SSML must start with <speak>: wrap the text in <speak>…</speak> (or send text_type "text")',
    'El SSML debe empezar con <speak>: envuelve el texto en <speak>…</speak> (o envía text_type "text")',
  ],
  ssml_doctype: [
    'a DOCTYPE is not accepted (SSML needs no DTD; entities and external DTDs are refused)',
    'no se acepta un DOCTYPE (el SSML no necesita DTD; se rechazan entidades y DTD externas)',
  ],
  ssml_too_deep: ['elements nested deeper than {n}', 'elementos anidados a más de {n} niveles'],
  ssml_too_many: ['more than {n} elements', 'más de {n} elementos'],
  ssml_no_speak: [
    'no <speak> element: wrap the text in <speak>…</speak>',
    'no hay elemento <speak>: envuelve el texto en <speak>…</speak>',
  ],
  ssml_not_well_formed: ['not well-formed XML: {reason}', 'XML mal formado: {reason}'],
  ssml_processing_instruction: [
    'processing instruction <?{name}?> is not accepted',
    'no se acepta la instrucción de procesamiento <?{name}?>',
  ],
  ssml_root: ['the root element must be <speak>, not <{el}>', 'el elemento raíz debe ser <speak>, no <{el}>'],
  xml_entities: [
    '{@reason} Only &amp; &lt; &gt; &quot; &apos; and numeric references (&#233;) are allowed',
    '{@reason} Solo se admiten &amp; &lt; &gt; &quot; &apos; y referencias numéricas (&#233;)',
  ],
  lexicons_paid_only: [
    'Pronunciation lexicons belong to paid accounts: send `Authorization: Bearer <API key>` (plans: GET /pay/checkout/pro).',
    'Los léxicos de pronunciación son de cuentas de pago: envía `Authorization: Bearer <clave de API>` (planes: GET /pay/checkout/pro).',
  ],
  lexicon_duplicate: [
    "Duplicate grapheme '{g}' (also entry {n}): keep one entry per word",
    "Grafema repetido '{g}' (también en la entrada {n}): deja una entrada por palabra",
  ],
  lexicon_too_large: [
    'The entries take {bytes} bytes as JSON; a lexicon holds at most {max}. Split it into several lexicons.',
    'Las entradas ocupan {bytes} bytes en JSON; un léxico admite como máximo {max}. Divídelo en varios léxicos.',
  ],
  lexicons_too_many: [
    'This account already has {n} lexicons, the most it may hold: delete one (DELETE /v1/lexicons/{name}) or replace an existing one.',
    'Esta cuenta ya tiene {n} léxicos, el máximo: borra uno (DELETE /v1/lexicons/{name}) o reemplaza uno existente.',
  ],
  lexicons_account_too_large: [
    "The account's lexicons would take {bytes} bytes; the limit is {max}. Delete or shorten other lexicons first.",
    'Los léxicos de la cuenta ocuparían {bytes} bytes; el límite es {max}. Borra o acorta antes otros léxicos.',
  ],
  lexicon_unknown: [
    "No lexicon named '{name}' in this account (GET /v1/lexicons lists them){end}",
    "Esta cuenta no tiene un léxico llamado '{name}' (GET /v1/lexicons los lista){end}",
  ],
  lexicon_alias_or_phoneme: [
    'Give an alias (what to say instead), a phoneme (IPA), or both',
    'Indica un alias (lo que se dirá en su lugar), un fonema (AFI), o ambos',
  ],
  lexicon_grapheme_spaces: [
    'No line breaks or surrounding spaces in a grapheme',
    'Un grafema no lleva saltos de línea ni espacios alrededor',
  ],
  lexicon_grapheme_letter: [
    'The grapheme must contain a letter or digit',
    'El grafema debe contener una letra o un dígito',
  ],
  lexicon_alias_letter: [
    'The alias must contain a letter or digit',
    'El alias debe contener una letra o un dígito',
  ],
  lexicon_phoneme_ipa: [
    'Write the phoneme in IPA letters and marks (e.g. "ˈwaj fai")',
    'Escribe el fonema con letras y signos del AFI (p. ej. "ˈwaj fai")',
  ],
} as const satisfies Record<string, readonly [en: string, es: string]>;
