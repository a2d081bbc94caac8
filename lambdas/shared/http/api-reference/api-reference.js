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
  // Swagger UI's copy buttons are icons without a name: give them one (screen readers, axe button-name); its
  // scrolling code boxes (answers, examples) take keyboard focus so they can be scrolled without a mouse.
  new MutationObserver(function () {
    root.querySelectorAll('.copy-to-clipboard button:not([aria-label])').forEach(function (b) {
      b.setAttribute('aria-label', 'Copiar al portapapeles');
    });
    root.querySelectorAll('.microlight:not([tabindex]), .example:not([tabindex])').forEach(function (e) {
      e.setAttribute('tabindex', '0');
    });
  }).observe(root, { childList: true, subtree: true });
})();
