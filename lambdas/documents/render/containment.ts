// The containment layers for untrusted HTML, as pure functions (unit-tested; measured behaviour in
// docs/documents-rendering.md). Each layer alone blocks the network; together they are defence in depth:
//   1. Browser flags: @sparticuz/chromium's args minus `--disable-web-security` and
//      `--allow-running-insecure-content` (with them Chromium reads file:///etc/passwd), every request through a
//      proxy at 127.0.0.1:9 (nothing listens: refused) including loopback (`<-loopback>`), and host names that never
//      resolve (so not even a DNS query leaves: dns-prefetch, preconnect).
//   2. Request interception: the document itself is served from a synthetic origin (http://render.invalid), data:
//      URLs pass, every other request is aborted before it reaches the network stack.
//   3. A Content-Security-Policy response header (not a <meta>: the caller's markup cannot precede or undo it):
//      default-src 'none' with data: images, styles and fonts, plus `sandbox`, which gives the document an opaque
//      origin, blocks scripts, forms, popups and meta refresh.
//   4. JavaScript off in the page (puppeteer's setJavaScriptEnabled(false)) unless a trusted template asks for it.
// WebSocket is not covered by layer 2 (DevTools interception does not see it): layers 1, 3 and 4 stop it.

/** The synthetic origin documents are served from: `.invalid` never resolves (RFC 6761). */
export const DOCUMENT_ORIGIN = 'http://render.invalid';

/** Flags @sparticuz/chromium adds that must not be used with untrusted HTML. */
export const DROPPED_ARGS = ['--disable-web-security', '--allow-running-insecure-content'] as const;

export const CONTAINMENT_ARGS = [
  // Every request goes to a proxy that refuses (port 9, discard: nothing listens on loopback), loopback included:
  // Chromium bypasses proxies for localhost unless told `<-loopback>`. This also catches WebSocket.
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  // No host name resolves, so no DNS query leaves either (dns-prefetch, preconnect).
  '--host-resolver-rules=MAP * ~NOTFOUND',
  // Chromium's own background traffic (component updates, safe browsing, metrics, field trials).
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-client-side-phishing-detection',
  '--disable-breakpad',
  '--no-first-run',
  '--disable-quic',
  '--mute-audio',
  // No popups or new windows, whatever the page does.
  '--block-new-web-contents',
  '--deny-permission-prompts',
  // Containers (Lambda, Docker) have a small /dev/shm; shared memory goes to /tmp instead.
  '--disable-dev-shm-usage',
] as const;

/**
 * Flags that change how much work a render costs, not what it prints. `--run-all-compositor-stages-before-draw`: a
 * frame is produced only once every compositor stage has run for it, instead of the compositor ticking at 60 Hz
 * while a long document is laid out and printed (docs/documents-templates.md, measurements: CPU per PDF −3 to −6 ms
 * on the freight invoice with its Carta Porte, pdftotext and the visual tests unchanged).
 */
export const RENDERING_ARGS = ['--run-all-compositor-stages-before-draw'] as const;

/**
 * The HTML of a PDF, with no style, layout, paint or raster for the screen, which a PDF never shows (the document is
 * still parsed and loads its images). Printing lays the document out again for print media anyway, so the PDF is the
 * same: pdftotext and pdftoppm rasters byte-identical with and without it, two pages and a lazy image included
 * (docs/documents-templates.md, measurements: Chromium's CPU per PDF −8 ms of ~30). Kept as it is: a page with scripts
 * (a script may measure the screen layout) and a document with an `@font-face` (a web font starts loading only when a
 * layout uses it: without the screen's, the PDF would print in the fallback font). PNGs never come here.
 */
export function withoutScreenLayout(html: string, allowScripts: boolean): string {
  if (allowScripts || /@font-face/i.test(html)) return html;
  return `${html}<style>@media screen{html{display:none!important}}</style>`;
}

/**
 * The browser's command line: @sparticuz/chromium's serverless flags (single process, no sandbox for Lambda's
 * root user, no GPU) minus the two that open file:// and mixed content, plus the containment and rendering flags.
 */
export function launchArgs(
  baseArgs: readonly string[],
  { singleProcess }: { singleProcess: boolean },
): string[] {
  const dropped = new Set<string>(DROPPED_ARGS);
  if (!singleProcess) dropped.add('--single-process');
  return [...baseArgs.filter((a) => !dropped.has(a)), ...CONTAINMENT_ARGS, ...RENDERING_ARGS];
}

/** The CSP header the document is served with. Scripts only when a trusted template asks (`allowScripts`). */
export function contentSecurityPolicy({ allowScripts }: { allowScripts: boolean }): string {
  return [
    "default-src 'none'",
    'img-src data:',
    "style-src 'unsafe-inline' data:",
    'font-src data:',
    allowScripts ? "script-src 'unsafe-inline'" : undefined,
    "base-uri 'none'",
    "form-action 'none'",
    // Opaque origin (no storage, no cookies), no forms, popups, top navigation or meta refresh; scripts too unless
    // allow-scripts.
    allowScripts ? 'sandbox allow-scripts' : 'sandbox',
  ]
    .filter(Boolean)
    .join('; ');
}

export type RequestDecision = 'serve-document' | 'continue' | 'abort';

/**
 * What to do with a request the page makes. Only the main frame's navigation to the current document URL is served
 * (once per render, by the interceptor); data: URLs continue (inline images, fonts, Chromium's own broken-image
 * icons); everything else, subresource or navigation, is aborted.
 */
export function decideRequest(req: {
  url: string;
  isNavigation: boolean;
  isMainFrame: boolean;
  documentUrl: string | undefined;
}): RequestDecision {
  if (req.isNavigation && req.isMainFrame && req.documentUrl !== undefined && req.url === req.documentUrl)
    return 'serve-document';
  if (!req.isNavigation && req.url.startsWith('data:')) return 'continue';
  return 'abort';
}

/**
 * The URL in Chromium's console report of a request the CSP refused (no request is made), if `text` is one:
 * "Loading the image 'http://…' violates the following Content Security Policy directive: …" (older Chromium:
 * "Refused to load the image 'http://…' because it violates …"); a frame's URL is reported as its origin.
 */
export function cspBlockedUrl(text: string): string | undefined {
  return /'([^']+)' (?:because it )?violates the following Content Security Policy directive/.exec(text)?.[1];
}
