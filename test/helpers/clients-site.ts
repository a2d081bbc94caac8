// The loopback site both client e2e files (clients-typescript, clients-python) read: a news article (what
// /convert/url narrates) at any path, and an RSS feed of one other article (what a publisher feed narrates) at
// /feed.xml → /feria.html. Tests allow-list it with URL_FETCH_ALLOWLIST: `127.0.0.1:<port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const article = (
  title: string,
) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><nav><a href="/">Inicio</a></nav></header><main><article><h1>${title}</h1>
<p>Después de diez años de obras, el tren de pasajeros llegó por fin a los pueblos de la sierra. Los vecinos
salieron a recibirlo con música y comida, y muchos viajaron gratis durante el primer día.</p>
<p>El recorrido completo dura dos horas y media. Las autoridades prometen tres salidas diarias y tarifas
especiales para estudiantes y personas mayores a partir del mes próximo.</p>
<p>Los comerciantes esperan más visitantes los fines de semana, sobre todo en la temporada de lluvias.</p>
</article></main><footer>Diario de la Sierra</footer></body></html>`;

/** The article's title (in the narration's `title`). */
export const ARTICLE_TITLE = 'El tren llega a la sierra';
/** The feed's one article: another title, so another text (its own narration, not a reuse). */
const FEED_ARTICLE_TITLE = 'La feria del libro abre en la plaza';

export interface ArticleSite {
  port: number;
  /** The article (any path but the feed's). */
  articleUrl: string;
  /** The RSS feed of one article. */
  feedUrl: string;
  /** The feed's article address. */
  feedArticleUrl: string;
  close(): Promise<void>;
}

export async function startArticleSite(): Promise<ArticleSite> {
  let base = '';
  const server = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      return res.end(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Diario de la Sierra</title><link>${base}/</link>
<description>Noticias</description><language>es-MX</language>
<item><title>${FEED_ARTICLE_TITLE}</title><link>${base}/feria.html</link><guid>${base}/feria.html</guid>
<pubDate>Sat, 28 Nov 2026 09:00:00 GMT</pubDate></item>
</channel></rss>`);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(article(req.url === '/feria.html' ? FEED_ARTICLE_TITLE : ARTICLE_TITLE));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    port,
    articleUrl: `${base}/noticia`,
    feedUrl: `${base}/feed.xml`,
    feedArticleUrl: `${base}/feria.html`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
