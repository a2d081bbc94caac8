// The one catalogue of the human messages both services answer errors with: code → [English, Spanish]. The key is
// the stable machine-readable code (answered in X-Error-Code); the English text is what the code throws, with
// `{name}` where a value goes (copied as it is) and `{@name}` where the value is itself translated (a nested message,
// or a word of TERMS). Read by ./errors.ts; test/unit/error-catalogue.test.ts fails when a message the sources can
// throw has no entry here, or an entry lacks Spanish. Keep field names, headers, paths and values in the Spanish as
// they are: they are what the caller types.

export const ERROR_MESSAGES = {
  // ---- HTTP layer ----------------------------------------------------------------------------------------------
  not_found: ['Not Found', 'No encontrado'],
  not_found_path: ['Not found: {path}', 'No encontrado: {path}'],
  method_not_allowed: ['Method Not Allowed', 'Método no permitido'],
  internal_error: [
    'Internal server error. If it persists, contact support quoting request id {id}.',
    'Error interno del servidor. Si se repite, escribe a soporte indicando el id de solicitud {id}.',
  ],
  deadline: [
    'The request took too long and was stopped. Please retry; long texts are processed in the background.',
    'La solicitud tardó demasiado y se detuvo. Vuelve a intentarlo; los textos largos se procesan en segundo plano.',
  ],
  deadline_not_counted: [
    'The request took too long and was stopped. Please retry; this attempt was not counted.',
    'La solicitud tardó demasiado y se detuvo. Vuelve a intentarlo; este intento no se contó.',
  ],
  deadline_render: [
    'The document took too long to render and was stopped. Please retry; large documents can be rendered in the background with options.async (Scale plan).',
    'El documento tardó demasiado en generarse y se detuvo. Vuelve a intentarlo; los documentos grandes pueden generarse en segundo plano con options.async (plan Scale).',
  ],
  dependency_throttled: [
    'The service is busy right now. Please retry in a moment.',
    'El servicio está ocupado en este momento. Vuelve a intentarlo en un momento.',
  ],
  dependency_unavailable: [
    'A backing service is temporarily unavailable. Please retry in a few seconds.',
    'Un servicio interno no está disponible por ahora. Vuelve a intentarlo en unos segundos.',
  ],
  body_too_large: [
    'Request body is larger than {bytes} bytes, the limit for this endpoint',
    'El cuerpo de la solicitud supera los {bytes} bytes, el límite de este endpoint',
  ],
  pdf_body_too_large: [
    'Request body is larger than {bytes} bytes (about 4.5 MB), the most one request to POST /convert/pdf can carry. For PDFs up to 20 MB: POST /convert/pdf/upload for an upload_id and a presigned upload form, send the file there, then POST /convert/pdf with {"upload_id": "<id>"} (and voice/fmt/lexicons/retention_days as usual).',
    'El cuerpo de la solicitud supera los {bytes} bytes (unos 4.5 MB), lo máximo que admite una solicitud a POST /convert/pdf. Para PDF de hasta 20 MB: pide a POST /convert/pdf/upload un upload_id y un formulario de subida prefirmado, envía ahí el archivo y luego llama a POST /convert/pdf con {"upload_id": "<id>"} (y voice/fmt/lexicons/retention_days como siempre).',
  ],
  json_invalid: ['JSON decode error', 'El JSON no es válido'],
  json_too_deep: [
    'Nested more than {n} levels deep (objects and arrays)',
    'Anidado a más de {n} niveles de profundidad (objetos y arreglos)',
  ],
  unsupported_content_type: [
    "Unsupported Content-Type '{type}'. Send application/json or application/x-www-form-urlencoded.",
    "Content-Type '{type}' no admitido. Envía application/json o application/x-www-form-urlencoded.",
  ],
  unsupported_content_type_multipart: [
    "Unsupported Content-Type '{type}'. Send multipart/form-data with the file in a field named '{field}' (e.g. curl -F \"{f}=@document.pdf\").",
    "Content-Type '{type}' no admitido. Envía multipart/form-data con el archivo en un campo llamado '{field}' (p. ej. curl -F \"{f}=@document.pdf\").",
  ],
  unsupported_content_type_pdf: [
    'Unsupported Content-Type \'{type}\'. Send the PDF as multipart/form-data in a field named \'file\' (e.g. curl -F "file=@document.pdf"), or, after POST /convert/pdf/upload, JSON {"upload_id": "<id>"}.',
    'Content-Type \'{type}\' no admitido. Envía el PDF como multipart/form-data en un campo llamado \'file\' (p. ej. curl -F "file=@document.pdf"), o, tras POST /convert/pdf/upload, el JSON {"upload_id": "<id>"}.',
  ],
  multipart_malformed_hint: [
    'Malformed multipart body ({reason}). Let your HTTP client build the form (e.g. curl -F "{f}=@document.pdf") rather than setting the Content-Type header by hand.',
    'Cuerpo multipart mal formado ({reason}). Deja que tu cliente HTTP arme el formulario (p. ej. curl -F "{f}=@document.pdf") en vez de escribir a mano la cabecera Content-Type.',
  ],
  multipart_malformed: [
    'Malformed multipart body ({reason}). Let your HTTP client build the form (e.g. curl -F "{f}=@document.pdf").',
    'Cuerpo multipart mal formado ({reason}). Deja que tu cliente HTTP arme el formulario (p. ej. curl -F "{f}=@document.pdf").',
  ],
  file_too_large: [
    'File is larger than {limit}, the limit for uploads. Reduce its size (e.g. "Reduce file size" or "Print to PDF" without images) or split it, then upload again.',
    'El archivo pesa más de {limit}, el límite de subida. Reduce su tamaño (p. ej. «Reducir tamaño de archivo» o «Imprimir a PDF» sin imágenes) o divídelo, y vuelve a subirlo.',
  ],
  form_value_too_long: [
    'Value is longer than {bytes} bytes, the limit for form fields',
    'El valor supera los {bytes} bytes, el límite de los campos del formulario',
  ],
  form_too_many_parts_fields: [
    "The form has too many parts; send only '{field}' and {fields}.",
    "El formulario tiene demasiadas partes; envía solo '{field}' y {fields}.",
  ],
  form_too_many_parts: [
    "The form has too many parts; send only '{field}'.",
    "El formulario tiene demasiadas partes; envía solo '{field}'.",
  ],
  form_one_file: [
    "Send exactly one file in the field '{field}'; {n} were sent.",
    "Envía exactamente un archivo en el campo '{field}'; se enviaron {n}.",
  ],
  form_text_for_file: [
    'Expected an uploaded file in \'{field}\', got a text value. Send the file itself (e.g. curl -F "{f}=@document.pdf").',
    'Se esperaba un archivo en \'{field}\' y llegó un texto. Envía el archivo en sí (p. ej. curl -F "{f}=@document.pdf").',
  ],
  form_misnamed_file: [
    "Field required: a file was sent as '{got}'; name the field '{field}'.",
    "Campo obligatorio: se envió un archivo como '{got}'; llama al campo '{field}'.",
  ],

  // ---- validation (pydantic-style items) -----------------------------------------------------------------------
  field_required: ['Field required', 'Campo obligatorio'],
  string_type: ['Input should be a valid string', 'Debe ser un texto'],
  object_type: [
    'Input should be a valid dictionary or object to extract fields from',
    'Debe ser un objeto con campos',
  ],
  number_type: ['Input should be a valid number', 'Debe ser un número'],
  bool_type: ['Input should be a valid boolean', 'Debe ser un booleano (true o false)'],
  other_type: ['Input should be a valid {type}', 'Debe ser un valor válido de tipo {type}'],
  string_too_short: ['String should have at least {@count}', 'El texto debe tener al menos {@count}'],
  string_too_long: ['String should have at most {@count}', 'El texto debe tener como máximo {@count}'],
  greater_than_equal: ['Input should be greater than or equal to {n}', 'Debe ser mayor o igual que {n}'],
  less_than_equal: ['Input should be less than or equal to {n}', 'Debe ser menor o igual que {n}'],
  greater_than: ['Input should be greater than {n}', 'Debe ser mayor que {n}'],
  less_than: ['Input should be less than {n}', 'Debe ser menor que {n}'],
  list_too_short: ['List should have at least {@count}', 'La lista debe tener al menos {@count}'],
  list_too_long: ['List should have at most {@count}', 'La lista debe tener como máximo {@count}'],
  literal_error: ['Input should be {@values}', 'Debe ser {@values}'],
  pattern_mismatch: ["String should match pattern '{pattern}'", "El texto debe seguir el patrón '{pattern}'"],
  invalid_input: ['Invalid input', 'Valor no válido'],
  unrecognized_key: ['Unrecognized key: {key}', 'Clave no reconocida: {key}'],
  unrecognized_keys: ['Unrecognized keys: {keys}', 'Claves no reconocidas: {keys}'],
  email_invalid: ['value is not a valid email address', 'el valor no es un correo electrónico válido'],
  email_invalid_hint: [
    'value is not a valid email address: write it as name@example.com',
    'el valor no es un correo electrónico válido: escríbelo como nombre@ejemplo.com',
  ],
  ref_control: ['ref must not contain control characters', 'ref no puede contener caracteres de control'],
  config_retry_schedule: [
    '{name} must be comma-separated whole seconds, each at most 43200 (12 h)',
    '{name} debe ser una lista de segundos enteros separados por comas, cada uno de 43200 (12 h) como máximo',
  ],
  config_dns_stub: [
    "WEBHOOK_DNS_STUB entry '{entry}' is not name=ip[|ip]",
    "La entrada '{entry}' de WEBHOOK_DNS_STUB no tiene la forma nombre=ip[|ip]",
  ],

  // ---- idempotency -----------------------------------------------------------------------------------------------
  idempotency_key_invalid: [
    'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)',
    'Idempotency-Key debe tener de 1 a 255 caracteres ASCII visibles (un UUID es buena opción)',
  ],
  idempotency_key_reused: [
    'This Idempotency-Key was already used with a different request (method, path, query or body) in the last 24 hours. Use a new key for a new request.',
    'Esta Idempotency-Key ya se usó con otra solicitud (método, ruta, query o cuerpo) en las últimas 24 horas. Usa una clave nueva para una solicitud nueva.',
  ],
  idempotency_key_in_use: [
    'A request with this Idempotency-Key is still being processed. Retry in a moment to get its answer.',
    'Una solicitud con esta Idempotency-Key aún se está procesando. Reinténtalo en un momento para obtener su respuesta.',
  ],
  idempotency_replay_unavailable: [
    'The request with this Idempotency-Key already succeeded, but its answer is too large to replay. It was not run again; fetch the result it created, or use a new key.',
    'La solicitud con esta Idempotency-Key ya tuvo éxito, pero su respuesta es demasiado grande para repetirla. No se volvió a ejecutar; consulta el resultado que creó o usa una clave nueva.',
  ],

  // ---- keys, plans and payments --------------------------------------------------------------------------------
  authorization_malformed: [
    'Malformed Authorization header. Send `Authorization: Bearer <API key>`, or no header for the free tier.',
    'La cabecera Authorization está mal formada. Envía `Authorization: Bearer <clave de API>`, o ninguna cabecera para el plan gratuito.',
  ],
  api_key_unknown: [
    'Unknown API key. Check for typos, or send no Authorization header to use the free tier.',
    'Clave de API desconocida. Revisa que esté bien escrita, o no envíes la cabecera Authorization para usar el plan gratuito.',
  ],
  api_key_revoked: [
    'This API key was revoked (replaced by POST /pay/keys/rotate, or withdrawn by support). Use the key that replaced it, or contact support.',
    'Esta clave de API fue revocada (reemplazada con POST /pay/keys/rotate, o retirada por soporte). Usa la clave que la reemplazó, o escribe a soporte.',
  ],
  api_key_lapsed: [
    '{@what} of this API key {@why}, so the key has no paid access. Update your card or see invoices at POST /pay/portal?email=<your e-mail> (send this key as Bearer), or subscribe again at GET /pay/checkout/{plan}. Without an Authorization header you get the free tier.',
    '{@what} de esta clave de API {@why}, así que la clave no tiene acceso de pago. Actualiza tu tarjeta o consulta tus facturas en POST /pay/portal?email=<tu correo> (envía esta clave como Bearer), o suscríbete de nuevo en GET /pay/checkout/{plan}. Sin la cabecera Authorization usas el plan gratuito.',
  ],
  subscription_state: ["is in state '{state}'", "está en el estado '{state}'"],
  payments_not_configured: [
    'Payments are not available on this server right now. Please try again later or contact support.',
    'Los pagos no están disponibles en este servidor por ahora. Inténtalo más tarde o escribe a soporte.',
  ],
  payment_provider_unavailable: [
    'The payment provider could not {@action} right now. Please retry in a moment.',
    'El proveedor de pagos no pudo {@action} en este momento. Vuelve a intentarlo en un momento.',
  ],
  plan_not_sold: ['The {plan} plan is not sold by this service.', 'Este servicio no vende el plan {plan}.'],
  stripe_event_retry: [
    'The event could not be processed now; Stripe will retry it.',
    'El evento no se pudo procesar ahora; Stripe lo reintentará.',
  ],
  stripe_event_busy: [
    'This event is being processed by another delivery; Stripe will retry it.',
    'Otra entrega está procesando este evento; Stripe lo reintentará.',
  ],
  stripe_signature_missing: [
    'Missing Stripe-Signature header: this endpoint only accepts events sent by Stripe.',
    'Falta la cabecera Stripe-Signature: este endpoint solo acepta eventos enviados por Stripe.',
  ],
  stripe_signature_invalid: [
    'Webhook signature verification failed: {reason}',
    'La verificación de la firma del webhook falló: {reason}',
  ],
  stripe_payload_invalid: [
    'The signed payload is not a Stripe event.',
    'El contenido firmado no es un evento de Stripe.',
  ],
  portal_key_required: [
    'Send your API key as `Authorization: Bearer <key>` to open the billing portal of its account. {@help}',
    'Envía tu clave de API como `Authorization: Bearer <clave>` para abrir el portal de facturación de su cuenta. {@help}',
  ],
  lost_key_help: [
    'If you still have the key, POST /pay/keys/rotate with it as Bearer replaces it. If it is lost, contact support from the e-mail address you paid with: after checking it, support issues a replacement and the old key stops working.',
    'Si aún tienes la clave, POST /pay/keys/rotate con ella como Bearer la reemplaza. Si la perdiste, escribe a soporte desde el correo con el que pagaste: tras comprobarlo, soporte emite una nueva y la anterior deja de funcionar.',
  ],
  lost_key_help_portal: [
    'If you still have the key, POST /pay/keys/rotate with it as Bearer replaces it. If it is lost, contact support from the e-mail address you paid with: after checking it, support issues a replacement and the old key stops working. To manage billing without a key, sign in at {url} (Stripe e-mails you a code).',
    'Si aún tienes la clave, POST /pay/keys/rotate con ella como Bearer la reemplaza. Si la perdiste, escribe a soporte desde el correo con el que pagaste: tras comprobarlo, soporte emite una nueva y la anterior deja de funcionar. Para gestionar la facturación sin clave, entra en {url} (Stripe te envía un código por correo).',
  ],
  portal_no_account: [
    'This key has no billing account with the payment provider (it was issued by an administrator). Contact support.',
    'Esta clave no tiene cuenta de facturación con el proveedor de pagos (la emitió un administrador). Escribe a soporte.',
  ],
  portal_wrong_email: [
    "This e-mail is not the one of this key's account. Use the e-mail you paid with.",
    'Este correo no es el de la cuenta de esta clave. Usa el correo con el que pagaste.',
  ],
  rotate_key_required: [
    'Send the API key to replace as `Authorization: Bearer <key>`.',
    'Envía la clave de API que quieres reemplazar como `Authorization: Bearer <clave>`.',
  ],
  rotate_admin_key: [
    'This key was issued by an administrator, not by a purchase, so it cannot be rotated here. Contact support.',
    'Esta clave la emitió un administrador, no una compra, así que no se puede rotar aquí. Escribe a soporte.',
  ],
  rotate_already: [
    'This key was already rotated. Use the key the rotation returned.',
    'Esta clave ya se rotó. Usa la clave que devolvió la rotación.',
  ],
  billing_account_unknown: ['No billing account {id}.', 'No existe la cuenta de facturación {id}.'],
  checkout_not_ours: [
    'This checkout did not buy a plan of this service.',
    'Este pago no compró un plan de este servicio.',
  ],
  checkout_session_not_ours: [
    'This checkout session did not buy a plan of this service.',
    'Esta sesión de pago no compró un plan de este servicio.',
  ],
  checkout_session_unknown: [
    'Unknown checkout session. Use the link Stripe redirected you to after paying; if you paid a moment ago, retry in a few seconds.',
    'Sesión de pago desconocida. Usa el enlace al que te llevó Stripe después de pagar; si pagaste hace un momento, vuelve a intentarlo en unos segundos.',
  ],
  checkout_not_complete: [
    'This checkout has not been completed. Finish the payment on the Stripe page first.',
    'Este pago no se ha completado. Termina primero el pago en la página de Stripe.',
  ],
  checkout_pending: [
    'The payment is still pending (some methods, such as cash vouchers, confirm later). Come back to this page once it is confirmed; the key waits for you.',
    'El pago sigue pendiente (algunos métodos, como los pagos en efectivo, se confirman más tarde). Vuelve a esta página cuando se confirme; la clave te espera.',
  ],
  subscription_exists: [
    'This e-mail already has an active subscription to this API; a second checkout would bill it twice. To change plan open the customer portal: POST /pay/portal?email={email} with your API key as Bearer, and switch the plan there (your keys follow the new plan). Lifetime can still be bought here; then cancel the subscription in the portal.',
    'Este correo ya tiene una suscripción activa a esta API; un segundo pago la cobraría dos veces. Para cambiar de plan abre el portal de cliente: POST /pay/portal?email={email} con tu clave de API como Bearer, y cambia ahí el plan (tus claves siguen al plan nuevo). Lifetime se puede comprar aquí igualmente; después cancela la suscripción en el portal.',
  ],

  // ---- webhooks (both services) -------------------------------------------------------------------------------
  webhook_key_required: [
    'Send `Authorization: Bearer <{label}>`: {@why}',
    'Envía `Authorization: Bearer <{label}>`: {@why}',
  ],
  webhook_not_registered_hint: [
    'No webhook endpoint is registered for this account. Register one with PUT /v1/webhook.',
    'Esta cuenta no tiene un endpoint de webhook registrado. Registra uno con PUT /v1/webhook.',
  ],
  webhook_not_registered: [
    'No webhook endpoint is registered for this account.',
    'Esta cuenta no tiene un endpoint de webhook registrado.',
  ],
  webhook_changed: [
    'The webhook endpoint was changed by another request just now. Read it again (GET /v1/webhook) and retry.',
    'Otra solicitud acaba de cambiar el endpoint del webhook. Vuelve a leerlo (GET /v1/webhook) y reintenta.',
  ],
  webhook_host_unresolved_now: [
    "The host name '{host}' could not be resolved just now. Please retry in a moment.",
    "No se pudo resolver el nombre de host '{host}' en este momento. Vuelve a intentarlo en un momento.",
  ],
  webhook_host_unresolved: [
    "The host name '{host}' does not resolve. Check it for typos; the endpoint must be reachable when you register it",
    "El nombre de host '{host}' no se resuelve. Revisa que esté bien escrito; el endpoint debe estar accesible al registrarlo",
  ],
  webhook_https_required: [
    'Webhook URLs must use https:// (plain http:// is not allowed)',
    'Las URL de webhook deben usar https:// (no se admite http:// sin cifrar)',
  ],
  webhook_scheme: [
    'Webhook URLs must start with https:// (not {scheme}//)',
    'Las URL de webhook deben empezar por https:// (no por {scheme}//)',
  ],
  webhook_full_address: [
    'Give the full address of your endpoint, starting with https://',
    'Indica la dirección completa de tu endpoint, empezando por https://',
  ],
  webhook_userinfo: [
    'Remove user:password@ from the URL: callbacks are authenticated by their {header} header',
    'Quita usuario:contraseña@ de la URL: las llamadas se autentican con su cabecera {header}',
  ],
  webhook_fragment: [
    'Remove the #fragment: it is never sent to a server',
    'Quita el #fragmento: nunca se envía al servidor',
  ],
  webhook_port: [
    'Port {port} is not allowed: callbacks go to the standard HTTPS port 443 only',
    'El puerto {port} no está permitido: las llamadas solo van al puerto HTTPS estándar 443',
  ],
  webhook_address_private: [
    'The address {address} is {@range}: webhooks are only delivered to endpoints on the public internet',
    'La dirección {address} es {@range}: los webhooks solo se entregan a endpoints en internet público',
  ],
  webhook_host_private: [
    "The host '{host}' resolves to an address that is not public: webhooks are only delivered to endpoints on the public internet",
    "El host '{host}' se resuelve a una dirección que no es pública: los webhooks solo se entregan a endpoints en internet público",
  ],
  webhook_http_allowlist: [
    'http:// callbacks are only allowed to allowlisted destinations',
    'Las llamadas por http:// solo se permiten a destinos de la lista permitida',
  ],
  webhooks_scale_only: [
    'Webhooks are a Scale plan feature; this key is on the {plan} plan. Upgrade to Scale (GET /pricing) to register a callback URL.',
    'Los webhooks son del plan Scale; esta clave está en el plan {plan}. Cámbiate a Scale (GET /pricing) para registrar una URL de llamada.',
  ],

  // ---- growth (A/B, waitlist, dashboard) -----------------------------------------------------------------------
  per_ip_limit: [
    'Too many {@what}: at most {n} per {@period} per IP address. Try again in {s} seconds.',
    'Demasiados {@what}: como máximo {n} por {@period} por dirección IP. Vuelve a intentarlo en {s} segundos.',
  ],
  experiment_unknown: [
    "Unknown experiment '{name}'. Configured experiments: {list}.",
    "Experimento desconocido '{name}'. Experimentos configurados: {list}.",
  ],
  experiment_none: [
    "Unknown experiment '{name}'. No experiments are configured (AB_EXPERIMENTS is empty).",
    "Experimento desconocido '{name}'. No hay experimentos configurados (AB_EXPERIMENTS está vacío).",
  ],
  experiment_variant_mismatch: [
    "Visitor '{visitor}' is assigned variant '{assigned}' of experiment '{name}', not '{sent}'. Send the variant from GET /ab/assign/{path}?visitor={v}, or leave variant out.",
    "Al visitante '{visitor}' le tocó la variante '{assigned}' del experimento '{name}', no '{sent}'. Envía la variante de GET /ab/assign/{path}?visitor={v}, o no envíes variant.",
  ],
  experiment_variant_unknown: [
    "Input should be {@values} (the variants of '{name}')",
    "Debe ser {@values} (las variantes de '{name}')",
  ],
  dashboard_disabled: [
    'A/B results are disabled: no dashboard token is configured. Set DASHBOARD_TOKEN (at least 16 characters) on this function.',
    'Los resultados A/B están desactivados: no hay token de panel configurado. Define DASHBOARD_TOKEN (al menos 16 caracteres) en esta función.',
  ],
  dashboard_token_wrong: ['Wrong dashboard token.', 'Token de panel incorrecto.'],
  dashboard_token_required: [
    'A dashboard token is required: send `Authorization: Bearer <token>` or `X-Dashboard-Token: <token>`.',
    'Hace falta un token de panel: envía `Authorization: Bearer <token>` o `X-Dashboard-Token: <token>`.',
  ],
  dashboard_token_limit: [
    'Too many wrong dashboard tokens from this address: at most {n} per hour. Try again in {s} seconds.',
    'Demasiados tokens de panel incorrectos desde esta dirección: como máximo {n} por hora. Vuelve a intentarlo en {s} segundos.',
  ],

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

  // ---- documents: requests --------------------------------------------------------------------------------------
  custom_html_paid: [
    'custom_html (your own templates) is a Pro, Scale or Lifetime feature: send `Authorization: Bearer <key>`, or use a built-in template (GET /templates).',
    'custom_html (tus propias plantillas) es de los planes Pro, Scale o Lifetime: envía `Authorization: Bearer <clave>`, o usa una plantilla incluida (GET /templates).',
  ],
  monthly_limit_merge: [
    'Monthly limit reached: {n} documents per calendar month (UTC) on the {plan} plan. It resets in {s} seconds; a paid plan raises it (GET /pricing). This request merges {parts} documents and counts as {count}.',
    'Llegaste al límite mensual: {n} documentos por mes calendario (UTC) en el plan {plan}. Se reinicia en {s} segundos; un plan de pago lo amplía (GET /pricing). Esta solicitud une {parts} documentos y cuenta como {count}.',
  ],
  monthly_limit: [
    'Monthly limit reached: {n} documents per calendar month (UTC) on the {plan} plan. It resets in {s} seconds; a paid plan raises it (GET /pricing).',
    'Llegaste al límite mensual: {n} documentos por mes calendario (UTC) en el plan {plan}. Se reinicia en {s} segundos; un plan de pago lo amplía (GET /pricing).',
  ],
  template_unknown_templates: [
    "Unknown template '{slug}'. Templates: {list} (GET /templates).",
    "Plantilla desconocida '{slug}'. Plantillas: {list} (GET /templates).",
  ],
  template_unknown: [
    "Unknown template '{slug}': use one of {list}, or send custom_html",
    "Plantilla desconocida '{slug}': usa una de {list}, o envía custom_html",
  ],
  template_required: [
    'Field required: give a template ({list}) or your own custom_html',
    'Campo obligatorio: indica una plantilla ({list}) o tu propio custom_html',
  ],
  template_format: [
    "Template '{slug}' renders to {list}; '{fmt}' is not one of them",
    "La plantilla '{slug}' genera {list}; '{fmt}' no es uno de ellos",
  ],
  template_no_xml: [
    "Template '{slug}' does not read XML: send data, or use the factura or nomina template",
    "La plantilla '{slug}' no lee XML: envía data, o usa la plantilla factura o nomina",
  ],
  template_no_xml_required: [
    "Template '{slug}' has no XML to require",
    "La plantilla '{slug}' no tiene XML que exigir",
  ],
  cfdi_xml_custom_html: [
    'cfdi_xml is read by the factura template, not by custom_html',
    'cfdi_xml lo lee la plantilla factura, no custom_html',
  ],
  data_or_xml: ['Send either data or cfdi_xml, not both', 'Envía data o cfdi_xml, no ambos'],
  marca_factura_only: [
    'options.marca is printed by the factura template, not by {what}',
    'options.marca la imprime la plantilla factura, no {what}',
  ],
  pdfa_pdf_only: [
    "PDF/A is a PDF: send format 'pdf' with options.pdfa, or drop options.pdfa for '{fmt}'",
    "PDF/A es un PDF: envía format 'pdf' con options.pdfa, o quita options.pdfa para '{fmt}'",
  ],
  merge_pdf_only: [
    "documents are merged into one PDF: send format 'pdf' (a merge of '{fmt}' files is not offered)",
    "documents se unen en un solo PDF: envía format 'pdf' (no se ofrece unir archivos '{fmt}')",
  ],
  merge_part_member: [
    'With documents, each part carries its own {field}: move it into documents[i], or drop documents to render one document',
    'Con documents, cada parte lleva su propio {field}: muévelo a documents[i], o quita documents para generar un solo documento',
  ],
  merge_require_xml: [
    'require_xml is about a zip with the CFDI XML; a merge is one PDF: drop options.require_xml',
    'require_xml trata de un zip con el XML del CFDI; una unión es un solo PDF: quita options.require_xml',
  ],
  merge_request_member: [
    '{field} belongs to the request (it applies to the whole merge), not to a part: move it out of documents[{i}]',
    '{field} pertenece a la solicitud (se aplica a toda la unión), no a una parte: sácalo de documents[{i}]',
  ],
  merge_unknown_member: [
    'Unknown member of a part: a part has {list}',
    'Miembro desconocido en una parte: una parte tiene {list}',
  ],
  password_too_long: [
    'The password is {bytes} bytes as UTF-8; PDF readers use at most {max}: choose a shorter one',
    'La contraseña ocupa {bytes} bytes en UTF-8; los lectores de PDF usan como máximo {max}: elige una más corta',
  ],
  protect_pdf_only: [
    "options.{field} protects a PDF: send format 'pdf', or drop options.{field2} for '{fmt}'",
    "options.{field} protege un PDF: envía format 'pdf', o quita options.{field2} para '{fmt}'",
  ],
  pdfa_no_encryption: [
    'PDF/A forbids encryption, so a PDF/A cannot carry options.{field}: drop options.pdfa (or send false) to protect the PDF, or drop the protection to get a PDF/A',
    'PDF/A prohíbe el cifrado, así que un PDF/A no puede llevar options.{field}: quita options.pdfa (o envía false) para proteger el PDF, o quita la protección para obtener un PDF/A',
  ],
  expires_in_async_only: [
    'options.expires_in is how long the result of an async render is kept: send options.async true with it, or drop it (a synchronous render answers the document itself)',
    'options.expires_in es cuánto se guarda el resultado de una generación asíncrona: envía también options.async true, o quítalo (una generación síncrona responde con el documento mismo)',
  ],
  metadata_too_many_keys: [
    'metadata has {n} keys; at most {max}: keep ids and references, store the rest on your side',
    'metadata tiene {n} claves; como máximo {max}: guarda ids y referencias, y el resto de tu lado',
  ],
  metadata_too_large: [
    'metadata is {bytes} bytes as JSON; at most {max}: keep ids and references, store the rest on your side',
    'metadata ocupa {bytes} bytes en JSON; como máximo {max}: guarda ids y referencias, y el resto de tu lado',
  ],
  length_unit: [
    "Use a length such as '12mm', '1cm', '0.5in' or '20px'",
    "Usa una longitud como '12mm', '1cm', '0.5in' o '20px'",
  ],
  async_scale_only_anonymous: [
    'Async rendering (options.async) is a Scale plan feature: send `Authorization: Bearer <Scale key>` (GET /pricing), or leave options.async out to get the document in the response.',
    'La generación asíncrona (options.async) es del plan Scale: envía `Authorization: Bearer <clave Scale>` (GET /pricing), o no envíes options.async para recibir el documento en la respuesta.',
  ],
  async_scale_only: [
    'Async rendering (options.async) is a Scale plan feature; this key is on the {plan} plan. Upgrade to Scale (GET /pricing), or leave options.async out to get the document in the response.',
    'La generación asíncrona (options.async) es del plan Scale; esta clave está en el plan {plan}. Cámbiate a Scale (GET /pricing), o no envíes options.async para recibir el documento en la respuesta.',
  ],
  render_queue_unavailable: [
    'The render could not be queued because a backing service is unavailable. Please retry; this attempt was not counted against your limits.',
    'La generación no se pudo encolar porque un servicio interno no está disponible. Vuelve a intentarlo; este intento no se contó en tus límites.',
  ],
  renderer_restarted: [
    'The renderer stopped responding and was restarted. Please retry this request.',
    'El generador dejó de responder y se reinició. Vuelve a intentar esta solicitud.',
  ],
  job_unknown: [
    "No job '{id}' for this account (jobs are kept for a day after they are created).",
    "Esta cuenta no tiene el trabajo '{id}' (los trabajos se guardan un día desde que se crean).",
  ],
  job_expired: [
    "Job '{id}' expired at {at} (its result is kept for options.expires_in seconds, a day by default) and its document was deleted. Render it again to get a new one.",
    "El trabajo '{id}' caducó a las {at} (su resultado se guarda options.expires_in segundos, un día por omisión) y su documento se borró. Genéralo de nuevo para obtener otro.",
  ],

  // ---- documents: rendering -------------------------------------------------------------------------------------
  format_needs_table: [
    "Format '{fmt}' needs a <table> in the rendered HTML: add one, or choose html, pdf, md or txt",
    "El formato '{fmt}' necesita una <table> en el HTML generado: agrega una, o elige html, pdf, md o txt",
  ],
  render_timeout: [
    'The document did not finish rendering within {s} s. Make it lighter: fewer elements or pages, smaller images, no CSS filters/shadows on large areas.',
    'El documento no terminó de generarse en {s} s. Hazlo más ligero: menos elementos o páginas, imágenes más pequeñas, sin filtros/sombras CSS en áreas grandes.',
  ],
  render_navigated: [
    'The document navigated away (meta refresh, link or script): remove that',
    'El documento navegó a otra página (meta refresh, enlace o script): quita eso',
  ],
  render_html_string: ['The HTML to render must be a string', 'El HTML que se genera debe ser un texto'],
  page_length_unit: [
    '{field} must be a length with a unit, such as "10mm", "1.5cm", "0.5in" or "40px"',
    '{field} debe ser una longitud con unidad, como "10mm", "1.5cm", "0.5in" o "40px"',
  ],
  page_length_range: [
    '{field} must be between {min}mm and {max}mm',
    '{field} debe estar entre {min}mm y {max}mm',
  ],
  page_size: [
    '{field} must be one of {list} or a custom size such as "210mm x 297mm" or {"width": "8.5in", "height": "11in"}',
    '{field} debe ser uno de {list} o un tamaño propio como "210mm x 297mm" o {"width": "8.5in", "height": "11in"}',
  ],
  page_size_type: [
    '{field} must be a string or an object {width, height}',
    '{field} debe ser un texto o un objeto {width, height}',
  ],
  page_margin: [
    '{field} must be a length such as "10mm" or an object {top, right, bottom, left}',
    '{field} debe ser una longitud como "10mm" o un objeto {top, right, bottom, left}',
  ],
  header_too_long: ['{field} is longer than {n} characters', '{field} tiene más de {n} caracteres'],
  header_link: [
    '{field} cannot contain <link> elements: use the bundled fonts by name (Noto Sans, Noto Serif, Noto Sans Mono) and inline styles',
    '{field} no puede contener elementos <link>: usa las fuentes incluidas por su nombre (Noto Sans, Noto Serif, Noto Sans Mono) y estilos en línea',
  ],
  header_import: [
    '{field} cannot contain @import or @font-face: use the bundled fonts by name (Noto Sans, Noto Serif, Noto Sans Mono) and inline styles',
    '{field} no puede contener @import ni @font-face: usa las fuentes incluidas por su nombre (Noto Sans, Noto Serif, Noto Sans Mono) y estilos en línea',
  ],
  header_backslash: [
    '{field} cannot contain backslashes (CSS escapes) when it has a <style> element',
    '{field} no puede contener barras invertidas (escapes CSS) si tiene un elemento <style>',
  ],
  integer_range: [
    '{field} must be an integer from {min} to {max}',
    '{field} debe ser un entero de {min} a {max}',
  ],
  device_scale_factor: [
    'options.device_scale_factor must be a number from 1 to 3',
    'options.device_scale_factor debe ser un número de 1 a 3',
  ],
  template_timeout: [
    'The template took too long to render (limit {ms} ms): look for very long loops such as range() over millions of items',
    'La plantilla tardó demasiado en generarse (límite {ms} ms): busca bucles muy largos, como range() sobre millones de elementos',
  ],
  template_memory: [
    'The template used too much memory (limit {mb} MB): look for strings or lists that grow without bound',
    'La plantilla usó demasiada memoria (límite {mb} MB): busca textos o listas que crecen sin límite',
  ],
  template_problem_at: [
    '{@reason} (line {line}, column {column})',
    '{@reason} (línea {line}, columna {column})',
  ],
  template_problem_line: ['{@reason} (line {line})', '{@reason} (línea {line})'],

  // ---- documents: template data ----------------------------------------------------------------------------------
  currency_unknown_sat: [
    'Unknown currency code: use an ISO 4217 code (c_Moneda) such as MXN, USD or EUR',
    'Código de moneda desconocido: usa un código ISO 4217 (c_Moneda) como MXN, USD o EUR',
  ],
  currency_unknown: [
    'Unknown currency code: use an ISO 4217 code such as MXN, USD or EUR',
    'Código de moneda desconocido: usa un código ISO 4217 como MXN, USD o EUR',
  ],
  currency_xxx: [
    'XXX (no currency) is only for CFDI de traslado or de pago; an invoice has a currency',
    'XXX (sin moneda) es solo para CFDI de traslado o de pago; una factura tiene moneda',
  ],
  date_calendar: [
    'Not a calendar date: check the month and day',
    'No es una fecha del calendario: revisa el mes y el día',
  ],
  date_format: [
    'Date must be written YYYY-MM-DD, e.g. 2024-03-15',
    'La fecha se escribe AAAA-MM-DD, p. ej. 2024-03-15',
  ],
  rfc_format: [
    'Not an RFC: 3–4 letters, 6 digits (YYMMDD) and 3 characters, e.g. EKU9003173C9',
    'No es un RFC: 3–4 letras, 6 dígitos (AAMMDD) y 3 caracteres, p. ej. EKU9003173C9',
  ],
  rfc_fisica_length: [
    'The RFC of a persona física has 13 characters (4 letters, the birth date YYMMDD and the homoclave), e.g. HEOA850612QW4; this one has {n}',
    'El RFC de una persona física tiene 13 caracteres (4 letras, la fecha de nacimiento AAMMDD y la homoclave), p. ej. HEOA850612QW4; este tiene {n}',
  ],
  rfc_fisica_format: [
    'Not an RFC of a persona física: 4 letters, the birth date YYMMDD (6 digits) and a 3-character homoclave, e.g. HEOA850612QW4',
    'No es un RFC de persona física: 4 letras, la fecha de nacimiento AAMMDD (6 dígitos) y una homoclave de 3 caracteres, p. ej. HEOA850612QW4',
  ],
  rfc_date: [
    "The RFC's date {d} (YYMMDD) is not a calendar day",
    'La fecha {d} (AAMMDD) del RFC no es un día del calendario',
  ],
  rfc_fisica_required: [
    'This must be the RFC of a persona física (13 characters)',
    'Debe ser el RFC de una persona física (13 caracteres)',
  ],
  rfc_moral_required: [
    'This must be the RFC of a persona moral (12 characters)',
    'Debe ser el RFC de una persona moral (12 caracteres)',
  ],
  nss_format: [
    'An NSS is 1 to 15 digits (the IMSS uses 11), without spaces or dashes, e.g. 12038512345',
    'Un NSS tiene de 1 a 15 dígitos (el IMSS usa 11), sin espacios ni guiones, p. ej. 12038512345',
  ],
  cp_format: ['A código postal has 5 digits, e.g. 06600', 'Un código postal tiene 5 dígitos, p. ej. 06600'],
  hex_colour_example: ['Use a hex colour such as #1f3a5f', 'Usa un color hexadecimal como #1f3a5f'],
  hex_colour: ['A colour is written #rrggbb, e.g. #0b6e4f', 'Un color se escribe #rrggbb, p. ej. #0b6e4f'],
  account_number: [
    'An account number has 10 to 18 digits (a CLABE, 18)',
    'Un número de cuenta tiene de 10 a 18 dígitos (una CLABE, 18)',
  ],
  sat_catalogue_name: [
    '"{v}" is not in the SAT catalogue {cat}: use {list}… or the name, e.g. "{ex}"',
    '"{v}" no está en el catálogo del SAT {cat}: usa {list}… o el nombre, p. ej. "{ex}"',
  ],
  sat_catalogue: [
    '"{v}" is not in the SAT catalogue {cat}: use {list}…',
    '"{v}" no está en el catálogo del SAT {cat}: usa {list}…',
  ],
  sat_clave_range: [
    'The clave must be a 3-digit code of the SAT catalogue {cat} (001 to {max}, {except}), e.g. {ex} {name}',
    'La clave debe ser un código de 3 dígitos del catálogo del SAT {cat} (001 a {max}, {except}), p. ej. {ex} {name}',
  ],
  sat_clave: [
    'The clave must be a 3-digit code of the SAT catalogue {cat} (001 to {max}), e.g. {ex} {name}',
    'La clave debe ser un código de 3 dígitos del catálogo del SAT {cat} (001 a {max}), p. ej. {ex} {name}',
  ],
  balance_unbalanced_previous: [
    'The balance does not balance at fecha_corte_anterior {d}: activo {a} ≠ pasivo + capital {b} (difference {diff})',
    'El balance no cuadra a fecha_corte_anterior {d}: activo {a} ≠ pasivo + capital {b} (diferencia {diff})',
  ],
  balance_unbalanced: [
    'The balance does not balance: activo {a} ≠ pasivo + capital {b} (difference {diff})',
    'El balance no cuadra: activo {a} ≠ pasivo + capital {b} (diferencia {diff})',
  ],
  balance_dates: [
    'fecha_corte_anterior must be before fecha_corte ({d})',
    'fecha_corte_anterior debe ser anterior a fecha_corte ({d})',
  ],
  balance_previous_date: [
    'Accounts carry importe_anterior: give fecha_corte_anterior (YYYY-MM-DD) for the comparison',
    'Las cuentas llevan importe_anterior: indica fecha_corte_anterior (AAAA-MM-DD) para la comparación',
  ],
  ventas_group_by: [
    "group_by '{g}' needs a '{field}' on the rows, and no row has one: add it or leave group_by out",
    "group_by '{g}' necesita un '{field}' en las filas, y ninguna lo tiene: agrégalo o no envíes group_by",
  ],
  logo_doctype: ['An SVG logo with a DOCTYPE is not accepted', 'No se acepta un logo SVG con DOCTYPE'],
  logo_not_svg: [
    'The logo is not an SVG document (root <svg> in the SVG namespace)',
    'El logo no es un documento SVG (raíz <svg> en el espacio de nombres SVG)',
  ],
  logo_svg_xml: [
    'The SVG logo is not well-formed XML: {reason}',
    'El logo SVG no es XML bien formado: {reason}',
  ],
  logo_svg_empty: ['The SVG logo is empty', 'El logo SVG está vacío'],
  logo_data_uri: [
    'The logo must be a data URI of a PNG or an SVG: data:image/png;base64,… or data:image/svg+xml;base64,…',
    'El logo debe ser un data URI de un PNG o un SVG: data:image/png;base64,… o data:image/svg+xml;base64,…',
  ],
  logo_too_large: [
    'The logo is {bytes} bytes; at most {max} (200 KB)',
    'El logo ocupa {bytes} bytes; como máximo {max} (200 KB)',
  ],
  logo_not_png: ['The logo says image/png but is not a PNG', 'El logo dice image/png pero no es un PNG'],
  logo_png_size: [
    'The PNG logo is {w} × {h} px; at most {max} on each side',
    'El logo PNG mide {w} × {h} px; como máximo {max} por lado',
  ],
  brand_none: [
    'This account has no brand stored. Store one with PUT /v1/brand.',
    'Esta cuenta no tiene una marca guardada. Guarda una con PUT /v1/brand.',
  ],
  brand_empty: [
    'A brand needs at least one of logo, color, notas, leyenda_pie (DELETE /v1/brand removes it)',
    'Una marca necesita al menos uno de logo, color, notas, leyenda_pie (DELETE /v1/brand la elimina)',
  ],
  xml_required_for: [
    'Field required for the CFDI 4.0 XML ({field}); options.require_xml asks for it',
    'Campo obligatorio para el XML del CFDI 4.0 ({field}); lo pide options.require_xml',
  ],

  // ---- documents: stamped CFDI XML -------------------------------------------------------------------------------
  cfdi_required: ['{path} is required', '{path} es obligatorio'],
  cfdi33_namespace: [
    "Comprobante@Version '{v}' in namespace http://www.sat.gob.mx/cfd/3 (CFDI 3.3's): a CFDI 4.0 is in namespace http://www.sat.gob.mx/cfd/4",
    "Comprobante@Version '{v}' en el espacio de nombres http://www.sat.gob.mx/cfd/3 (el del CFDI 3.3): un CFDI 4.0 va en el espacio de nombres http://www.sat.gob.mx/cfd/4",
  ],
  cfdi33_refused: [
    'CFDI 3.3 is not accepted: only CFDI 4.0 (namespace http://www.sat.gob.mx/cfd/4), mandatory since 2023-04-01',
    'No se acepta CFDI 3.3: solo CFDI 4.0 (espacio de nombres http://www.sat.gob.mx/cfd/4), obligatorio desde 2023-04-01',
  ],
  cfdi_root_ns: [
    'The root element must be Comprobante in namespace http://www.sat.gob.mx/cfd/4; found {el} in {ns}',
    'El elemento raíz debe ser Comprobante en el espacio de nombres http://www.sat.gob.mx/cfd/4; se encontró {el} en {ns}',
  ],
  cfdi_root_no_ns: [
    'The root element must be Comprobante in namespace http://www.sat.gob.mx/cfd/4; found {el} without a namespace',
    'El elemento raíz debe ser Comprobante en el espacio de nombres http://www.sat.gob.mx/cfd/4; se encontró {el} sin espacio de nombres',
  ],
  cfdi_version: ["{el}@Version must be {v}, not '{got}'", "{el}@Version debe ser {v}, no '{got}'"],
  cfdi_no_concepto: [
    'Conceptos has no Concepto in the CFDI 4.0 namespace',
    'Conceptos no tiene ningún Concepto en el espacio de nombres del CFDI 4.0',
  ],
  cfdi_uuid: [
    "TimbreFiscalDigital@UUID '{v}' is not 8-4-4-4-12 hexadecimal digits (TimbreFiscalDigitalv11.xsd)",
    "TimbreFiscalDigital@UUID '{v}' no tiene la forma 8-4-4-4-12 en dígitos hexadecimales (TimbreFiscalDigitalv11.xsd)",
  ],
  cfdi_doctype: [
    'A DOCTYPE is not accepted: a CFDI has no DTD (entities and external DTDs are refused)',
    'No se acepta un DOCTYPE: un CFDI no tiene DTD (se rechazan entidades y DTD externas)',
  ],
  xml_too_many: ['More than {n} XML elements', 'Más de {n} elementos XML'],
  xml_too_deep: ['XML nested deeper than {n} elements', 'XML anidado a más de {n} elementos de profundidad'],
  xml_no_root: ['No root element', 'No hay elemento raíz'],
  xml_not_well_formed: ['Not well-formed XML: {reason}', 'XML mal formado: {reason}'],
  cfdi_pagos_missing: [
    'A CFDI de tipo P must carry its Complemento para recepción de Pagos 2.0 (namespace http://www.sat.gob.mx/Pagos20)',
    'Un CFDI de tipo P debe llevar su Complemento para recepción de Pagos 2.0 (espacio de nombres http://www.sat.gob.mx/Pagos20)',
  ],
  cfdi_nomina_to_nomina: [
    "A CFDI de tipo N (Complemento de Nómina 1.2) is a payroll receipt: send it with template 'nomina'",
    "Un CFDI de tipo N (Complemento de Nómina 1.2) es un recibo de nómina: envíalo con la plantilla 'nomina'",
  ],
  cfdi_not_nomina: [
    "The nomina template reads a CFDI de tipo N with Complemento de Nómina 1.2; this one is tipo {t}: send it with template 'factura'",
    "La plantilla nomina lee un CFDI de tipo N con Complemento de Nómina 1.2; este es de tipo {t}: envíalo con la plantilla 'factura'",
  ],
  cfdi_not_nomina_missing: [
    "The nomina template reads a CFDI de tipo N with Complemento de Nómina 1.2; this one is tipo {t} without it: send it with template 'factura'",
    "La plantilla nomina lee un CFDI de tipo N con Complemento de Nómina 1.2; este es de tipo {t} sin él: envíalo con la plantilla 'factura'",
  ],
  nomina_field: ['Nómina 1.2: {path}: {@reason}', 'Nómina 1.2: {path}: {@reason}'],
  retenciones10_refused: [
    'CFDI de Retenciones 1.0 is not accepted: only Retenciones 2.0 (namespace http://www.sat.gob.mx/esquemas/retencionpago/2), in force since 2022',
    'No se acepta CFDI de Retenciones 1.0: solo Retenciones 2.0 (espacio de nombres http://www.sat.gob.mx/esquemas/retencionpago/2), vigente desde 2022',
  ],
  retenciones_receptor: [
    'Retenciones/Receptor needs Nacional or Extranjero',
    'Retenciones/Receptor necesita Nacional o Extranjero',
  ],
  // ---- Documents: CFDI batches ---------------------------------------------------------------------------------
  batch_not_found: [
    "No batch '{id}' for this account (batches are kept for a day).",
    "No hay un lote '{id}' para esta cuenta (los lotes se guardan un día).",
  ],
  batch_plan_limit: [
    'A batch on the free plan holds at most {max} files; this one has {files}. Send `Authorization: Bearer <key>` of a paid plan (Pro: 1,000 files per batch, Scale: 5,000; GET /pricing).',
    'Un lote en el plan gratuito admite como máximo {max} archivos; este tiene {files}. Envía `Authorization: Bearer <key>` con la clave de un plan de pago (Pro: 1,000 archivos por lote, Scale: 5,000; GET /pricing).',
  ],
  batch_plan_limit_paid: [
    'A batch on the {plan} plan holds at most {max} files; this one has {files}. Split it into several batches, or upgrade to Scale (5,000 files per batch; GET /pricing).',
    'Un lote en el plan {plan} admite como máximo {max} archivos; este tiene {files}. Divídelo en varios lotes, o cambia al plan Scale (5,000 archivos por lote; GET /pricing).',
  ],
  batch_upload_id_format: [
    'an upload_id from POST /v1/batches/upload',
    'un upload_id de POST /v1/batches/upload',
  ],
  batch_month_used: [
    "This month's {limit} documents are used: a batch is charged per CFDI it prints. Upgrade (GET /pricing) or wait for the month to reset.",
    'Ya se usaron los {limit} documentos de este mes: un lote se cobra por cada CFDI que imprime. Mejora tu plan (GET /pricing) o espera a que empiece el mes.',
  ],
  batch_nothing_uploaded: [
    'Nothing was uploaded for this upload_id (or it expired): POST the zip to the upload url with the fields of POST /v1/batches/upload first.',
    'No se subió nada con este upload_id (o caducó): primero envía el zip con POST a la url de subida con los campos de POST /v1/batches/upload.',
  ],
  batch_queue_unavailable: [
    'The batch could not be queued because a backing service is unavailable. Please retry; nothing was charged.',
    'No se pudo poner el lote en cola porque un servicio interno no está disponible. Vuelve a intentarlo; no se cobró nada.',
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
