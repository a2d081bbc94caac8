// Error messages (code → [English, Spanish]) of the one catalogue, ../error-catalogue.ts, which explains the format.
// Both services' shared surfaces: the HTTP layer, validation items, idempotency, keys, plans and payments,
// webhooks, growth (A/B, waitlist, dashboard).

export const PLATFORM_MESSAGES = {
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
} as const satisfies Record<string, readonly [en: string, es: string]>;
