// What a site file's name says about how it is served: its content type, whether it is held as base64 (binary),
// and its Cache-Control. A service's generated module (scripts/build-site.ts) holds only each file's name and body;
// siteFiles() makes them StaticFiles, so these settings are declared once here and not on every generated entry.
import { extname } from 'node:path';
import type { StaticFile } from './static-assets';

/** Content type by extension: the kinds of file a site may hold (build-site refuses any other). */
export const SITE_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Kept as text; every other kind is binary, held as base64. */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  '.html',
  '.css',
  '.js',
  '.json',
  '.svg',
  '.txt',
  '.webmanifest',
]);

/** Pages revalidate within a minute; scripts, styles and images within five (all carry ETags). */
const cacheFor = (ext: string) =>
  ext === '.html' ? 'public, max-age=60' : 'public, max-age=300, stale-while-revalidate=3600';

/** A site's files from their names and bodies (text as is, binary as base64). */
export function siteFiles(bodies: Record<string, string>): Record<string, StaticFile> {
  return Object.fromEntries(
    Object.entries(bodies).map(([name, body]) => {
      const ext = extname(name);
      const binary = TEXT_EXTENSIONS.has(ext) ? {} : { base64: true };
      return [name, { type: SITE_TYPES[ext]!, body, ...binary, cacheControl: cacheFor(ext) }];
    }),
  );
}
