// Error messages (code → [English, Spanish]) of the one catalogue, ../error-catalogue.ts, which explains the format.
// Documents: requests, rendering, template data, stamped CFDI XML, CFDI batches.

export const DOCUMENTS_MESSAGES = {
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
  // Why a batch failed (its `reason`, GET /v1/batches/{id} in the caller's language).
  batch_zip_too_many_files: [
    'The zip holds more than {max} files, the most a batch holds on the {plan} plan: split it into several batches (GET /pricing shows each plan’s limit). Nothing was charged.',
    'El zip tiene más de {max} archivos, lo más que admite un lote en el plan {plan}: divídelo en varios lotes (GET /pricing muestra el límite de cada plan). No se cobró nada.',
  ],
  batch_zip_too_large_unzipped: [
    'The zip expands to more than {bytes} bytes.',
    'El zip descomprimido ocupa más de {bytes} bytes.',
  ],
  batch_zip_unreadable: [
    'The upload is not a readable zip: {error}',
    'Lo que subiste no es un zip legible: {error}',
  ],
  batch_zip_empty: [
    'The upload is not a zip of XML files (no file found in it).',
    'Lo que subiste no es un zip de archivos XML (no tiene ningún archivo).',
  ],
  batch_source_expired: [
    'The batch source could not be read back (it expired). Please start it again.',
    'No se pudo volver a leer el origen del lote (caducó). Vuelve a iniciarlo.',
  ],
  batch_month_short: [
    'The batch has {total} CFDI to print but {left} documents are left this month ({limit} on the {plan} plan). Nothing was charged: split the batch, or upgrade (GET /pricing).',
    'El lote tiene {total} CFDI por imprimir, pero este mes te quedan {left} documentos ({limit} en el plan {plan}). No se cobró nada: divide el lote o cambia de plan (GET /pricing).',
  ],
} as const satisfies Record<string, readonly [en: string, es: string]>;
