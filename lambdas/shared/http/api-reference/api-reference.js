// Starts Swagger UI (swagger-ui-bundle.js, loaded before this file) on the page GET /api serves: it reads the same
// OpenAPI 3.1 document the JSON form answers (`data-spec`, i.e. /api?format=json) and sends "Try it out" requests to
// this origin (the document names no server). No request leaves the origin: the spec validator badge is off.
/* global SwaggerUIBundle */
(function () {
  var root = document.getElementById('swagger-ui');
  SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Deep links would put a link inside each operation's toggle button (nested interactive controls, axe).
    deepLinking: false,
    validatorUrl: null,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    // Highlighting freezes the page on large answers (GET /templates is ~200 KB) and its theme misses AA contrast.
    syntaxHighlight: { activated: false },
  });
  // Swagger UI has no translations and no option for its labels: its own words (buttons, headings, table headers,
  // tabs) are put in Spanish as they appear. Only a text node that is exactly one of these labels, outside what the
  // API document itself says (descriptions, schemas, examples, answers), changes; React renders them as plain text
  // nodes, and a label it renders again is translated again.
  var ES = {
    'Try it out': 'Probar',
    Cancel: 'Cancelar',
    Reset: 'Restablecer',
    Execute: 'Ejecutar',
    Clear: 'Limpiar',
    Authorize: 'Autorizar',
    Authorized: 'Autorizado',
    Logout: 'Cerrar sesión',
    Close: 'Cerrar',
    'Available authorizations': 'Autorizaciones disponibles',
    'Value:': 'Valor:',
    Parameters: 'Parámetros',
    'No parameters': 'Sin parámetros',
    'Request body': 'Cuerpo de la petición',
    'Parameter content type': 'Tipo de contenido del parámetro',
    'Send empty value': 'Enviar un valor vacío',
    Responses: 'Respuestas',
    'Server response': 'Respuesta del servidor',
    'Request URL': 'URL de la petición',
    'Request duration': 'Duración de la petición',
    'Response body': 'Cuerpo de la respuesta',
    'Response headers': 'Cabeceras de la respuesta',
    Details: 'Detalles',
    Code: 'Código',
    Description: 'Descripción',
    Name: 'Nombre',
    Links: 'Enlaces',
    'No links': 'Sin enlaces',
    'Media type': 'Tipo de contenido',
    'Example Value': 'Ejemplo',
    Examples: 'Ejemplos',
    Schema: 'Esquema',
    Schemas: 'Esquemas',
    Servers: 'Servidores',
    Download: 'Descargar',
    'Download file': 'Descargar el archivo',
    'Edit Value': 'Editar el valor',
    Undocumented: 'Sin documentar',
    'Loading...': 'Cargando…',
    Callbacks: 'Retrollamadas',
    'No callbacks': 'Sin retrollamadas',
    required: 'obligatorio',
    Deprecated: 'Obsoleto',
    'Filter by tag': 'Filtrar por etiqueta',
  };
  var THEIRS =
    '.markdown, .renderedMarkdown, .model-box, .model, pre, code, textarea, .parameter__name, .prop-name';
  function translate(/** @type {Node} */ node) {
    if (node.nodeType === 3) {
      var el = node.parentElement;
      var key = node.data.trim();
      if (Object.prototype.hasOwnProperty.call(ES, key) && el && !el.closest(THEIRS)) node.data = ES[key];
      return;
    }
    if (node.nodeType !== 1) return;
    var walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (var t = walk.nextNode(); t; t = walk.nextNode()) translate(t);
  }

  // Swagger UI's copy buttons are icons without a name: give them one (screen readers, axe button-name); its
  // scrolling code boxes (answers, examples) take keyboard focus so they can be scrolled without a mouse.
  new MutationObserver(function (changes) {
    changes.forEach(function (c) {
      if (c.type === 'characterData') translate(c.target);
      else c.addedNodes.forEach(translate);
    });
    root.querySelectorAll('.copy-to-clipboard button:not([aria-label])').forEach(function (b) {
      b.setAttribute('aria-label', 'Copiar al portapapeles');
    });
    root.querySelectorAll('.microlight:not([tabindex]), .example:not([tabindex])').forEach(function (e) {
      e.setAttribute('tabindex', '0');
    });
  }).observe(root, { childList: true, subtree: true, characterData: true });
})();
